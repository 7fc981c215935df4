// What /metrics costs: a request through the app with the response counter against the same app with
// a counter that does nothing (in process, app.fetch, no network noise; interleaved in blocks, so a busy
// machine weighs on both alike); the metrics' own work per operation and per model call; and a scrape
// of /metrics over HTTP against /healthz, with sessions open.
// Run: npx tsx bench/metrics-cost.ts [requests per side]
import { createSessionManager, findChromium, loadCoreConfigFromEnv } from '../packages/core/src/index.js';
import { createApp, loadServerConfig, startServer } from '../packages/server/src/index.js';
import { createCdpProxy } from '../packages/server/src/cdp-proxy.js';
import { createDevtoolsLinks } from '../packages/server/src/live-page/devtools-link.js';
import { createLiveTokens } from '../packages/server/src/live-page/live-tokens.js';
import { createLogger } from '../packages/server/src/logger.js';
import { createServerMetrics, type ServerMetrics } from '../packages/server/src/metrics.js';

const N = Number(process.argv[2] ?? 20_000);
const BLOCK = 500;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

function appWith(metrics: ServerMetrics) {
  const env = { HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '', DECKHAND_POOL_SIZE: '0' };
  const config = loadServerConfig(env);
  const sessions = createSessionManager(loadCoreConfigFromEnv(env, { shared: false }), metrics.telemetry);
  metrics.readFrom(() => sessions.stats());
  return createApp({
    sessions,
    config,
    logger: createLogger('error', () => {}),
    specText: 'openapi: 3.1.0',
    chromiumPath: () => findChromium(true),
    cdp: createCdpProxy(sessions, {}),
    live: createLiveTokens({}),
    devtools: createDevtoolsLinks(sessions, {}),
    metrics,
  });
}

const counted = appWith(createServerMetrics());
const uncounted = appWith({ ...createServerMetrics(), countResponse: () => {} });

/** µs per request of one block of GET /healthz and of a 404. */
async function block(app: ReturnType<typeof appWith>, path: string): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < BLOCK; i++) await (await app.fetch(new Request(`http://127.0.0.1${path}`))).arrayBuffer();
  return ((performance.now() - t) * 1000) / BLOCK;
}

const rows: string[] = [];
for (const path of ['/healthz', '/v1/sessions/none/replay']) {
  const withMetrics: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < 3; i++) await block(counted, path), await block(uncounted, path); // warm-up
  for (let done = 0; done < N; done += 2 * BLOCK) {
    const first = (done / BLOCK) % 2 === 0;
    const a = await block(first ? counted : uncounted, path);
    const b = await block(first ? uncounted : counted, path);
    (first ? withMetrics : without).push(a);
    (first ? without : withMetrics).push(b);
  }
  rows.push(`| GET ${path} (in process) | ${median(without).toFixed(1)} µs | ${median(withMetrics).toFixed(1)} µs | ${(median(withMetrics) - median(without)).toFixed(1)} µs |`);
}

// The metrics' own work, alone.
const alone = createServerMetrics();
const per = (f: (i: number) => void, n = 200_000) => {
  for (let i = 0; i < 10_000; i++) f(i);
  const t = performance.now();
  for (let i = 0; i < n; i++) f(i);
  return ((performance.now() - t) * 1e6) / n;
};
const countNs = per(() => alone.countResponse(200));
const operationNs = per((i) => alone.telemetry.onOperation!({ kind: 'act', outcome: 'success', queueWaitMs: i % 7, durationMs: 40 + (i % 50) }));
const modelNs = per(() => alone.telemetry.onModelCall!({ model: 'openai/gpt-4.1-mini', prompt: [], usage: { inputTokens: 1200, outputTokens: 80 }, durationMs: 900 }));

// A scrape over HTTP with sessions open, against /healthz on the same server.
const server = await startServer({ HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '', DECKHAND_POOL_SIZE: '0' });
const body = JSON.stringify({ modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } });
for (let i = 0; i < 5; i++) await fetch(`${server.url}/v1/sessions/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const scrape: number[] = [];
const health: number[] = [];
let bytes = 0;
for (let i = 0; i < 200; i++) {
  let t = performance.now();
  bytes = (await (await fetch(`${server.url}/metrics`)).arrayBuffer()).byteLength;
  scrape.push(performance.now() - t);
  t = performance.now();
  await (await fetch(`${server.url}/healthz`)).arrayBuffer();
  health.push(performance.now() - t);
}
await server.close();

console.log(`\n/metrics cost (${N} requests a side, interleaved in blocks of ${BLOCK}; median of block means)\n`);
console.log('| What | Without the counter | With it | Difference |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(`\n| The metrics' own work | ns each |\n|---|---|`);
console.log(`| count one HTTP response | ${countNs.toFixed(0)} |`);
console.log(`| one operation (duration and queue-wait histograms) | ${operationNs.toFixed(0)} |`);
console.log(`| one model call (tokens, duration histogram) | ${modelNs.toFixed(0)} |`);
console.log(`\n| Over HTTP, 5 sessions open, 200 each, interleaved | median | p95 |\n|---|---|---|`);
console.log(`| GET /metrics (${bytes} bytes) | ${median(scrape).toFixed(2)} ms | ${p95(scrape).toFixed(2)} ms |`);
console.log(`| GET /healthz | ${median(health).toFixed(2)} ms | ${p95(health).toFixed(2)} ms |`);
process.exit(0);
