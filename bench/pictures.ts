// Screenshot and PDF time against Playwright's own on the same page, and what the replay's picture per
// operation costs an act. Rows: Playwright page.screenshot / page.pdf on a page of its own (the floor)
// against Deckhand's screenshot and pdf endpoints over HTTP (bytes) on the same fixture in the same
// Chromium build, viewport 1024x768; then an Action act with replay pictures on (the default) and off
// (DECKHAND_REPLAY_PICTURES=0), alone and as two acts back to back (the second waits for the first's
// picture). Interleaved: every round runs each row once, starting at a random row (random phase), with a
// pause of 100 ms plus up to one frame before each. Median and p95.
// Run: npx tsx bench/pictures.ts [rounds] [--out bench/results/pictures.md]
import { writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { findChromium } from '../packages/core/src/index.js';
import { startServer } from '../packages/server/src/index.js';
import { startFixtureServer } from '../test/support/fixture-server.js';
import { median, percentile } from './support/stats.js';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const OUT = outAt >= 0 ? args[outAt + 1]! : undefined;
const ROUNDS = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--out') ?? 20);
const WARMUP = 2;
const PAGE = 'pictures.html';
const VIEWPORT = { width: 1024, height: 768 };
const PAUSE_MS = 100;
const FRAME_MS = 1000 / 60;

const fixtures = await startFixtureServer();
const env = { HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '' };
const withPictures = await startServer(env, { writeLog: () => {} });
const withoutPictures = await startServer({ ...env, DECKHAND_REPLAY_PICTURES: '0' }, { writeLog: () => {} });
const browser = await chromium.launch({ executablePath: findChromium(true), args: ['--no-sandbox'] });

async function post(base: string, path: string, body: unknown): Promise<Response> {
  const response = await fetch(`${base}/v1/sessions/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-stream-response': 'false' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
}
const json = async (base: string, path: string, body: unknown) => ((await (await post(base, path, body)).json()) as { data: any }).data;
/** A file endpoint, read to its last byte (what a client gets). */
const file = async (base: string, path: string, body: unknown) => (await post(base, path, body)).arrayBuffer();

async function sessionOn(base: string): Promise<string> {
  const { sessionId } = await json(base, 'start', { modelName: 'builtin/offline', enableCaching: false, browser: { type: 'local', launchOptions: { headless: true, viewport: VIEWPORT } } });
  await json(base, `${sessionId}/navigate`, { url: fixtures.url(PAGE) });
  return sessionId;
}

/** Each round runs every row once, starting at a random row, so a shared machine's load falls on all alike. */
async function interleaved(rows: Array<[string, () => Promise<unknown>]>): Promise<Array<[string, number[]]>> {
  const times = rows.map((): number[] => []);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const start = Math.floor(Math.random() * rows.length);
    for (let k = 0; k < rows.length; k++) {
      const i = (start + k) % rows.length;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS + Math.random() * FRAME_MS));
      const t0 = performance.now();
      await rows[i]![1]();
      if (round >= WARMUP) times[i]!.push(performance.now() - t0);
    }
  }
  return rows.map(([name], i) => [name, times[i]!]);
}

let results: Array<[string, number[]]> = [];
try {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(fixtures.url(PAGE));
  const id = await sessionOn(withPictures.url);
  const on = await sessionOn(withPictures.url);
  const off = await sessionOn(withoutPictures.url);
  const click = { input: { selector: '#box', method: 'click', arguments: [], description: 'the box' } };
  const act = (base: string, session: string) => () => json(base, `${session}/act`, click);
  const twice = (base: string, session: string) => async () => {
    await act(base, session)();
    await act(base, session)();
  };
  results = await interleaved([
    ['Playwright page.screenshot, PNG viewport', () => page.screenshot()],
    ['Deckhand screenshot, PNG viewport (HTTP)', () => file(withPictures.url, `${id}/screenshot`, {})],
    ['Playwright page.screenshot, PNG full page (3000 px)', () => page.screenshot({ fullPage: true })],
    ['Deckhand screenshot, PNG full page (HTTP)', () => file(withPictures.url, `${id}/screenshot`, { fullPage: true })],
    ['Playwright page.screenshot, JPEG q80 viewport', () => page.screenshot({ type: 'jpeg', quality: 80 })],
    ['Deckhand screenshot, JPEG q80 viewport (HTTP)', () => file(withPictures.url, `${id}/screenshot`, { type: 'jpeg', quality: 80 })],
    ['Playwright locator.screenshot, element', () => page.locator('#box').screenshot()],
    ['Deckhand screenshot, element (HTTP)', () => file(withPictures.url, `${id}/screenshot`, { selector: '#box' })],
    ['Playwright page.pdf', () => page.pdf()],
    ['Deckhand pdf (HTTP)', () => file(withPictures.url, `${id}/pdf`, {})],
    ['Replay picture alone (Playwright JPEG q50, css scale)', () => page.screenshot({ type: 'jpeg', quality: 50, scale: 'css' })],
    ['Action act, replay pictures on', act(withPictures.url, on)],
    ['Action act, replay pictures off', act(withoutPictures.url, off)],
    ['Two acts back to back, pictures on', twice(withPictures.url, on)],
    ['Two acts back to back, pictures off', twice(withoutPictures.url, off)],
  ]);
  for (const [base, session] of [[withPictures.url, id], [withPictures.url, on], [withoutPictures.url, off]] as const) await json(base, `${session}/end`, {});
} finally {
  await browser.close();
  await withPictures.close();
  await withoutPictures.close();
  await fixtures.close();
}

const table = [
  `| ${ROUNDS} rounds after ${WARMUP} warm-up, interleaved from a random row, ${PAGE} at ${VIEWPORT.width}x${VIEWPORT.height} | median ms | p95 ms |`,
  '|---|---:|---:|',
  ...results.map(([name, times]) => `| ${name} | ${median(times).toFixed(1)} | ${percentile(times, 0.95).toFixed(1)} |`),
].join('\n');
console.log(table);
if (OUT) await writeFile(OUT, `# Screenshot, PDF and replay pictures\n\n\`npx tsx bench/pictures.ts ${ROUNDS} --out ${OUT}\`, ${new Date().toISOString().slice(0, 10)}, on the shared 2-core machine.\n\n${table}\n`);
