// Act latency side by side on one fixture page (forms.html, its Go button): a raw Playwright click, a
// Deckhand Action act over HTTP, a natural-language act with the offline model (act cache off), an
// observe with no instruction, the snapshot alone (captureSnapshot in process), and an Action act
// followed at once by an observe (what a read right after an act costs). Median and p95 per row; the
// operations run interleaved, one of each per round with a short pause before each, so a shared
// machine's changing load hits every row alike. With --cdp, instead: the CDP commands the server sends
// per Action act and per NL act (replay picture included), by method. With --stages, instead: the raw click
// and the Action act interleaved from a random row, each cut into stages at its CDP messages
// (support/click-stages.ts). Run: npx tsx bench/act-latency.ts [rounds] [--cdp | --stages]
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { findChromium } from '../packages/core/src/index.js';
import { SHADOW_HOOK_SCRIPT } from '../packages/core/src/browser/page-hooks/shadow-hook.js';
import { captureSnapshot } from '../packages/core/src/snapshot/index.js';
import { startServer } from '../packages/server/src/index.js';
import { startFixtureServer } from '../test/support/fixture-server.js';
import { countCdp, describeCount, emptyCount } from './support/cdp-count.js';
import { traceCdp } from './support/cdp-trace.js';
import { clickStages, describeStages, type ClickStages } from './support/click-stages.js';

const { values: flags, positionals } = parseArgs({ options: { cdp: { type: 'boolean', default: false }, stages: { type: 'boolean', default: false } }, allowPositionals: true });
const ROUNDS = Number(positionals[0] ?? 30);
const WARMUP = 3;
const PAGE = 'forms.html';

const fixtures = await startFixtureServer();
const server = await startServer({ HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '', DECKHAND_REPLAY_PICTURES: '100000' }, { writeLog: () => {} });
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

/**
 * A pause between measured operations, so each starts on a page its predecessor has finished with,
 * plus up to one frame (16.7 ms) at random: a click waits for animation frames, and a fixed pause
 * would start every click of a row at the same point of the page's frame clock.
 */
const PAUSE_MS = 100;
const FRAME_MS = 1000 / 60;

/**
 * Runs the operations in turn, round after round (interleaved, so a shared machine's load changes
 * hit every row alike), WARMUP rounds untimed first.
 */
async function interleaved(operations: Array<[string, () => Promise<unknown>]>): Promise<Array<[string, number[]]>> {
  const times = operations.map((): number[] => []);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [i, [, run]] of operations.entries()) {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS + Math.random() * FRAME_MS));
      const t0 = performance.now();
      await run();
      if (round >= WARMUP) times[i]!.push(performance.now() - t0);
    }
  }
  return operations.map(([name], i) => [name, times[i]!]);
}

/** The operations' stages (clickStages), each round from a random row, with the same pauses as interleaved. */
async function stages(operations: Array<[string, () => Promise<unknown>]>): Promise<string> {
  const traced = operations.map((): ClickStages[] => []);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const from = Math.floor(Math.random() * operations.length);
    for (let k = 0; k < operations.length; k++) {
      const i = (from + k) % operations.length;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS + Math.random() * FRAME_MS));
      const cut = clickStages(await traceCdp(operations[i]![1]));
      if (round >= WARMUP && cut) traced[i]!.push(cut);
    }
  }
  return describeStages(operations.map(([name], i) => [name, traced[i]!]));
}

function expectSuccess(data: { result: { success: boolean; message: string } }): void {
  if (!data.result.success) throw new Error(data.result.message);
}

let rows: Array<[string, number[]]> = [];
try {
  const context = await browser.newContext();
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
  const page = await context.newPage();
  await page.goto(fixtures.url(PAGE));
  const { sessionId: id } = await call('start', { modelName: 'builtin/offline', enableCaching: false, browser: { type: 'local', launchOptions: { headless: true } } });
  await call(`${id}/navigate`, { url: fixtures.url(PAGE) });
  const actionAct = async () => expectSuccess(await call(`${id}/act`, { input: { selector: '#go', method: 'click' } }));
  const nlAct = async () => expectSuccess(await call(`${id}/act`, { input: 'click the Go button' }));
  if (flags.cdp) {
    for (const [name, run] of [['Action act', actionAct], ['NL act, builtin/offline', nlAct]] as const) {
      for (let i = 0; i < WARMUP; i++) await run();
      const count = emptyCount();
      // Each act's window runs until its replay picture is written (the pause covers it).
      for (let i = 0; i < ROUNDS; i++) await countCdp(async () => (await run(), await new Promise((r) => setTimeout(r, PAUSE_MS))), count);
      console.log(`${name}:\n${describeCount(count, ROUNDS)}\n`);
    }
  } else if (flags.stages) {
    console.log(await stages([
      ['raw page.click', () => page.click('#go')],
      ['Action act', actionAct],
    ]));
  } else {
    rows = await interleaved([
      ['Playwright page.click (raw)', () => page.click('#go')],
      ['Deckhand Action act over HTTP', actionAct],
      ['Deckhand NL act, builtin/offline', nlAct],
      ['Deckhand observe, no instruction', () => call(`${id}/observe`, {})],
      ['captureSnapshot alone (in process)', () => captureSnapshot(page)],
      [
        'Action act, then observe at once (pair)',
        async () => {
          await actionAct();
          await call(`${id}/observe`, {});
        },
      ],
    ]);
  }
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
if (rows.length > 0) console.log(`| ${ROUNDS} rounds after ${WARMUP} warm-up, interleaved, ${PAGE} | median ms | p95 ms |`);
if (rows.length > 0) console.log('|---|---:|---:|');
for (const [name, times] of rows) console.log(`| ${name} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.95).toFixed(1)} |`);
