// Act latency side by side on one fixture page (forms.html, its Go button): a raw Playwright click, a
// Deckhand Action act over HTTP, a natural-language act with the offline model (act cache off), an
// observe with no instruction, the snapshot alone (captureSnapshot in process), and an Action act
// followed at once by an observe (what a read right after an act costs). Median and p95 per row.
// Run: npx tsx bench/act-latency.ts [rounds]
import { chromium } from 'playwright-core';
import { findChromium } from '../packages/core/src/index.js';
import { SHADOW_HOOK_SCRIPT } from '../packages/core/src/browser/shadow-hook.js';
import { captureSnapshot } from '../packages/core/src/snapshot/index.js';
import { startServer } from '../packages/server/src/index.js';
import { startFixtureServer } from '../test/support/fixture-server.js';

const ROUNDS = Number(process.argv[2] ?? 30);
const WARMUP = 3;
const PAGE = 'forms.html';

const fixtures = await startFixtureServer();
const server = await startServer({ HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '' }, { writeLog: () => {} });
const browser = await chromium.launch({ executablePath: findChromium(true), args: ['--no-sandbox'] });

async function call(path: string, body: unknown): Promise<any> {
  const response = await fetch(`${server.url}/v1/sessions/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-stream-response': 'false' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok || json.success === false) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json.data;
}

async function timed(run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return times;
}

function expectSuccess(data: { result: { success: boolean; message: string } }): void {
  if (!data.result.success) throw new Error(data.result.message);
}

const rows: Array<[string, number[]]> = [];
try {
  const context = await browser.newContext();
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
  const page = await context.newPage();
  await page.goto(fixtures.url(PAGE));
  rows.push(['Playwright page.click (raw)', await timed(() => page.click('#go'))]);

  const { sessionId: id } = await call('start', { modelName: 'builtin/offline', enableCaching: false, browser: { type: 'local', launchOptions: { headless: true } } });
  await call(`${id}/navigate`, { url: fixtures.url(PAGE) });
  rows.push(['Deckhand Action act over HTTP', await timed(async () => expectSuccess(await call(`${id}/act`, { input: { selector: '#go', method: 'click' } })))]);
  rows.push(['Deckhand NL act, builtin/offline', await timed(async () => expectSuccess(await call(`${id}/act`, { input: 'click the Go button' })))]);
  // Reload: the acts above left a long #log behind, and the snapshot rows should read the page as it loads.
  await call(`${id}/navigate`, { url: fixtures.url(PAGE) });
  await page.goto(fixtures.url(PAGE));
  rows.push(['Deckhand observe, no instruction', await timed(() => call(`${id}/observe`, {}))]);
  rows.push(['captureSnapshot alone (in process)', await timed(() => captureSnapshot(page))]);
  rows.push([
    'Action act, then observe at once (pair)',
    await timed(async () => {
      expectSuccess(await call(`${id}/act`, { input: { selector: '#go', method: 'click' } }));
      await call(`${id}/observe`, {});
    }),
  ]);
  await call(`${id}/end`, {});
} finally {
  await browser.close();
  await server.close();
  await fixtures.close();
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
console.log(`| ${ROUNDS} rounds after ${WARMUP} warm-up, ${PAGE} | median ms | p95 ms |`);
console.log('|---|---:|---:|');
for (const [name, times] of rows) console.log(`| ${name} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.95).toFixed(1)} |`);
