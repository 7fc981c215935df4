// What the CDP proxy costs a CDP client: connectOverCDP time and the round trip of a tiny
// page.evaluate, straight to a browser and through the server's relay to the same browser.
// Run: npx tsx bench/cdp-proxy.ts [round trips]
import { chromium } from 'playwright-core';
import { createSessionManager, DEFAULT_CORE_CONFIG } from '../packages/core/src/index.js';
import { startServer } from '../packages/server/src/index.js';

const trips = Number(process.argv[2] ?? 500);

// One browser, launched by the core; the server's session attaches to it and hands out its relay URL.
const manager = createSessionManager({ ...DEFAULT_CORE_CONFIG });
const owner = await manager.start('bench', { modelName: 'builtin/offline' });
const server = await startServer({ HOST: '127.0.0.1', PORT: '0', DECKHAND_CDP_PROXY: 'on', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '' });
const reply = await fetch(`${server.url}/v1/sessions/start`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ modelName: 'builtin/offline', browser: { type: 'local', cdpUrl: owner.cdpUrl } }),
});
const { data } = (await reply.json()) as { data: { cdpUrl: string } };

async function measure(url: string) {
  let t = performance.now();
  const browser = await chromium.connectOverCDP(url);
  const connect = performance.now() - t;
  const page = browser.contexts()[0]!.pages()[0]!;
  await page.evaluate('1');
  const times: number[] = [];
  for (let i = 0; i < trips; i++) {
    t = performance.now();
    await page.evaluate('1');
    times.push(performance.now() - t);
  }
  await browser.close();
  times.sort((a, b) => a - b);
  return { connect, median: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]! };
}

// Warm both routes once (first-connect costs in the browser and in Playwright), then measure.
await measure(owner.cdpUrl);
await measure(data.cdpUrl);
const rows = [
  ['direct (browser websocket)', await measure(owner.cdpUrl)],
  ['through the CDP proxy', await measure(data.cdpUrl)],
] as const;
console.log(`| route | connectOverCDP ms | evaluate round trip median ms | p95 ms |`);
console.log(`|---|---:|---:|---:|`);
for (const [name, r] of rows) console.log(`| ${name} | ${r.connect.toFixed(1)} | ${r.median.toFixed(3)} | ${r.p95.toFixed(3)} |`);
console.log(`(${trips} round trips each, one headless-shell browser, Node ${process.version}, server on Node)`);

await server.close();
await manager.shutdown();
