// An Action act, a natural-language act (offline model, act cache bypassed), two acts back to back, an act
// then an observe, and a session end, each against its raw Playwright counterpart (page.click,
// browser.close), with this checkout's server and, optionally, another
// checkout's (`--before <dir>`, e.g. an export of main) side by side in one run: every round runs each row
// once from a random row, with a pause of 100 ms plus a random part of a frame before each (random phase).
// Servers are processes of their own, called over HTTP on loopback; forms.html's Go button.
// Run: npx tsx bench/act-end.ts [--rounds 30] [--before /path/to/checkout]
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { ALLOW_FIXTURES, startFixtureServer } from '../test/support/fixture-server.js';
import { startDeckhandProcess, type DeckhandProcess } from './support/deckhand-process.js';
import { CHROMIUM, CHROMIUM_ARGS } from './support/stagehand-local.js';
import { median, percentile } from './support/stats.js';

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '30' }, warmup: { type: 'string', default: '3' }, before: { type: 'string' } } });
const ROUNDS = Number(flags.rounds);
const WARMUP = Number(flags.warmup);
const PAUSE_MS = 100;
const FRAME_MS = 1000 / 60;
const CLICK = { input: { selector: '#go', method: 'click' } };
const NL_CLICK = { input: 'click the Go button' };
const NO_CACHE = { 'browserbase-cache-bypass': 'true' };

const fixtures = await startFixtureServer();
const PAGE = fixtures.url('forms.html');
const env = { ...ALLOW_FIXTURES, DECKHAND_POOL_SIZE: '0' };
const servers: Array<[string, DeckhandProcess]> = [['after', await startDeckhandProcess(env)]];
if (flags.before) servers.unshift(['before', await startDeckhandProcess(env, { root: flags.before })]);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

async function sessionOn(server: DeckhandProcess, body: object = {}): Promise<string> {
  const { sessionId } = await server.post('/start', { modelName: 'builtin/offline', ...body });
  await server.post(`/${sessionId}/navigate`, { url: PAGE });
  return sessionId;
}
function mustSucceed(data: { result: { success: boolean; message: string } }): void {
  if (!data.result.success) throw new Error(data.result.message);
}

type Row = [string, () => Promise<number>];
const timed = async (run: () => Promise<unknown>) => {
  const t = performance.now();
  await run();
  return performance.now() - t;
};
const page = await browser.newPage();
await page.goto(PAGE);
const rows: Row[] = [
  ['Playwright `page.click("#go")`', () => timed(() => page.click('#go'))],
  [
    'Playwright `browser.close` (own browser, one page open)',
    async () => {
      const other = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      await (await other.newPage()).goto(PAGE);
      return timed(() => other.close());
    },
  ],
];
for (const [label, server] of servers) {
  const id = await sessionOn(server);
  const act = async () => mustSucceed(await server.post(`/${id}/act`, CLICK));
  rows.push(
    [`Deckhand ${label}: Action act over HTTP`, () => timed(act)],
    [`Deckhand ${label}: natural-language act, builtin/offline (cache bypassed)`, () => timed(async () => mustSucceed(await server.post(`/${id}/act`, NL_CLICK, NO_CACHE)))],
    [`Deckhand ${label}: two Action acts back to back`, () => timed(async () => (await act(), await act()))],
    [`Deckhand ${label}: Action act, then observe at once`, () => timed(async () => (await act(), await server.post(`/${id}/observe`, {})))],
    [
      `Deckhand ${label}: session end (own browser, one page open)`,
      async () => {
        // A launch switch keeps the session from sharing the project's browser: it has a Chromium of its own, as Playwright's does.
        const other = await sessionOn(server, { browser: { type: 'local', launchOptions: { args: ['--hide-scrollbars'] } } });
        return timed(() => server.post(`/${other}/end`));
      },
    ],
  );
}

const times = rows.map((): number[] => []);
try {
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const start = Math.floor(Math.random() * rows.length);
    for (let k = 0; k < rows.length; k++) {
      const i = (start + k) % rows.length;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS + Math.random() * FRAME_MS));
      const ms = await rows[i]![1]();
      if (round >= WARMUP) times[i]!.push(ms);
    }
  }
} finally {
  await browser.close();
  for (const [, server] of servers) await server.close();
  await fixtures.close();
}
console.log(`| ${ROUNDS} rounds after ${WARMUP} warm-up, interleaved from a random row, random frame phase | median ms | p95 ms |`);
console.log('|---|---:|---:|');
for (const [i, [name]] of rows.entries()) console.log(`| ${name} | ${median(times[i]!).toFixed(1)} | ${percentile(times[i]!, 0.95).toFixed(1)} |`);
