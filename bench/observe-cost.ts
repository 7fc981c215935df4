// What an observe with no instruction costs beside the snapshot it reads: observe over HTTP against
// captureSnapshot alone (in process, on a tab of the bench's own Chromium), with this checkout's server
// and, optionally, another checkout's (`--before <dir>`) side by side in one run. Every round runs each
// row once from a random row, after 100 ms plus a random part of a frame (random phase). Then each server
// is started again with Playwright's protocol log on and replay pictures off (a picture's commands are
// its own), and the CDP commands one observe sends are counted: before its answer, and in the
// background within 300 ms after it.
// Run: npx tsx bench/observe-cost.ts [--rounds 30] [--page forms.html] [--before /path/to/checkout]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { findChromium } from '../packages/core/src/index.js';
import { SHADOW_HOOK_SCRIPT } from '../packages/core/src/browser/page-hooks/shadow-hook.js';
import { captureSnapshot } from '../packages/core/src/snapshot/index.js';
import { ALLOW_FIXTURES, startFixtureServer } from '../test/support/fixture-server.js';
import { startDeckhandProcess, type DeckhandProcess } from './support/deckhand-process.js';
import { median, percentile } from './support/stats.js';

const { values: flags } = parseArgs({
  options: { rounds: { type: 'string', default: '30' }, warmup: { type: 'string', default: '3' }, page: { type: 'string', default: 'forms.html' }, before: { type: 'string' } },
});
const ROUNDS = Number(flags.rounds);
const WARMUP = Number(flags.warmup);
const PAUSE_MS = 100;
const FRAME_MS = 1000 / 60;
/** Commands an observe leaves to run after its answer (object releases, the replay picture) are looked for this long. */
const BACKGROUND_MS = 300;

const fixtures = await startFixtureServer();
const PAGE = fixtures.url(flags.page!);
const env = { ...ALLOW_FIXTURES, DECKHAND_POOL_SIZE: '0' };
const checkouts: Array<[string, string | undefined]> = [['after', undefined]];
if (flags.before) checkouts.unshift(['before', flags.before]);

async function sessionOn(server: DeckhandProcess): Promise<string> {
  const { sessionId } = await server.post('/start', { modelName: 'builtin/offline', enableCaching: false });
  await server.post(`/${sessionId}/navigate`, { url: PAGE });
  return sessionId;
}
const timed = async (run: () => Promise<unknown>) => {
  const t = performance.now();
  await run();
  return performance.now() - t;
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const browser = await chromium.launch({ executablePath: findChromium(true), args: ['--no-sandbox'] });
const context = await browser.newContext();
await context.addInitScript(SHADOW_HOOK_SCRIPT);
const page = await context.newPage();
await page.goto(PAGE);

const servers: DeckhandProcess[] = [];
const rows: Array<[string, () => Promise<number>]> = [['`captureSnapshot` alone (in process)', () => timed(() => captureSnapshot(page))]];
const times: number[][] = [];
const counts: string[] = [];
try {
  for (const [label, root] of checkouts) {
    const server = await startDeckhandProcess(env, { root });
    servers.push(server);
    const id = await sessionOn(server);
    rows.push([`Deckhand ${label}: observe, no instruction, over HTTP`, () => timed(() => server.post(`/${id}/observe`, {}))]);
  }
  for (const _ of rows) times.push([]);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const start = Math.floor(Math.random() * rows.length);
    for (let k = 0; k < rows.length; k++) {
      const i = (start + k) % rows.length;
      await pause(PAUSE_MS + Math.random() * FRAME_MS);
      const ms = await rows[i]![1]();
      if (round >= WARMUP) times[i]!.push(ms);
    }
  }
  for (const server of servers.splice(0)) await server.close();
  for (const [label, root] of checkouts) counts.push(`- ${label}: ${await countCommands(root)}`);
} finally {
  await browser.close();
  for (const server of servers) await server.close();
  await fixtures.close();
}

/** The CDP commands of one observe (the third, after two that warm up), read from the server's protocol log. */
async function countCommands(root: string | undefined): Promise<string> {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'deckhand-protocol-')), 'protocol.log');
  const server = await startDeckhandProcess({ ...env, DECKHAND_REPLAY_PICTURES: '0', DEBUG: 'pw:protocol', DEBUG_FILE: log }, { root });
  try {
    const id = await sessionOn(server);
    const sent = () => fs.readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('SEND ►'));
    const methods = (lines: string[]) => lines.map((line) => /"method":"([^"]+)"/.exec(line)?.[1]).join(', ');
    for (let i = 0; i < 2; i++) await server.post(`/${id}/observe`, {});
    await pause(BACKGROUND_MS);
    const before = sent().length;
    await server.post(`/${id}/observe`, {});
    const answered = sent().slice(before);
    await pause(BACKGROUND_MS);
    const background = sent().slice(before + answered.length);
    return `${answered.length} before the answer (${methods(answered)}); ${background.length} after it (${methods(background)})`;
  } finally {
    await server.close();
    fs.rmSync(path.dirname(log), { recursive: true, force: true });
  }
}

const snapshotMedian = median(times[0]!);
console.log(`| ${ROUNDS} rounds after ${WARMUP} warm-up, ${flags.page}, interleaved from a random row, random frame phase | median ms | p95 ms | median / snapshot alone |`);
console.log('|---|---:|---:|---:|');
for (const [i, [name]] of rows.entries()) {
  console.log(`| ${name} | ${median(times[i]!).toFixed(1)} | ${percentile(times[i]!, 0.95).toFixed(1)} | ${(median(times[i]!) / snapshotMedian).toFixed(2)}× |`);
}
console.log(`\nCDP commands the server sends for one observe (replay pictures off):\n${counts.join('\n')}`);
