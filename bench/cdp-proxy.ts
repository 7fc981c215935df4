// What the CDP relay costs a CDP client: connectOverCDP time and the round trip of a tiny
// page.evaluate. Session browsers listen on no port: clients reach them through the server's relay
// (websocket → mux → the browser's pipe), and Playwright inside the server through a private unix
// socket to the same mux. The baseline is a browser's own DevTools port, as clients had before.
// Run: npx tsx bench/cdp-proxy.ts [round trips]
import { chromium } from 'playwright-core';
import { servePrivateCdp } from '../packages/core/src/browser/cdp/cdp-websocket.js';
import { startServer } from '../packages/server/src/index.js';
import { startExternalChromium } from '../test/support/processes.js';

const trips = Number(process.argv[2] ?? 500);

const server = await startServer({ HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '' });
const reply = await fetch(`${server.url}/v1/sessions/start`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } }),
});
const { data } = (await reply.json()) as { data: { sessionId: string; cdpUrl: string } };
const external = await startExternalChromium();
// The private route Playwright takes inside the server, opened here on a second channel of a pipe browser.
const { createSessionManager, DEFAULT_CORE_CONFIG } = await import('../packages/core/src/index.js');
const manager = createSessionManager({ ...DEFAULT_CORE_CONFIG });
const session = await manager.start('bench', { modelName: 'builtin/offline' });
const privateRoute = await servePrivateCdp(() => session.openCdp());

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

const routes = [
  ['a browser\'s own DevTools port (baseline, not offered)', external.cdpUrl],
  ['Deckhand relay → mux → pipe (clients)', data.cdpUrl],
  ['unix socket → mux → pipe (Playwright in the server)', privateRoute.url],
] as const;
// Warm every route once (first-connect costs in the browser and in Playwright), then measure.
for (const [, url] of routes) await measure(url);
console.log(`| route | connectOverCDP ms | evaluate round trip median ms | p95 ms |`);
console.log(`|---|---:|---:|---:|`);
for (const [name, url] of routes) {
  const r = await measure(url);
  console.log(`| ${name} | ${r.connect.toFixed(1)} | ${r.median.toFixed(3)} | ${r.p95.toFixed(3)} |`);
}
console.log(`(${trips} round trips each, headless-shell browsers, Node ${process.version}, server on Node)`);

await privateRoute.close();
await manager.shutdown();
await external.close();
await server.close();
