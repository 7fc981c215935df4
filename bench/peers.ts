// Deckhand against its peers, side by side in one run, on the same Chromium binary and the same
// fixture page (test/fixtures/forms.html, its Go button): raw Playwright, Stagehand 3.7.3 in LOCAL
// mode, and a real Deckhand server over HTTP on loopback. Natural-language acts go to a loopback model
// (test/support/model-server.ts) that answers at once, so what is measured is the tool, not a model.
// Deckhand's rows on a session also give the server process's CPU per operation (issue 22), from /proc.
// Prints a markdown table and writes it to bench/results/ (peers.md unless --out says otherwise).
//
// Run: npm run bench:peers -- [--rounds 30] [--warmup 3] [--only latency|density] [--quick]
//        [--densities 1,10,50,300] [--density-rounds 10] [--min-free-gib 4] [--out bench/results/peers.md]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import type { Stagehand } from '@browserbasehq/stagehand';
import { SHADOW_HOOK_SCRIPT } from '../packages/core/src/browser/page-hooks/shadow-hook.js';
import { captureSnapshot } from '../packages/core/src/snapshot/index.js';
import { ALLOW_FIXTURES, startFixtureServer } from '../test/support/fixture-server.js';
import { startModelServer } from '../test/support/model-server.js';
import { startDeckhandProcess, type DeckhandProcess } from './support/deckhand-process.js';
import { cpuMs } from './support/proc-cpu.js';
import { browserPids, memAvailableKiB, treeMemoryKiB } from './support/proc-memory.js';
import { CHROMIUM, CHROMIUM_ARGS, localStagehand } from './support/stagehand-local.js';
import { mean, median, percentile } from './support/stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string' },
    warmup: { type: 'string' },
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    densities: { type: 'string' },
    'density-rounds': { type: 'string' },
    'min-free-gib': { type: 'string', default: '4' },
    'pool-size': { type: 'string', default: '2' },
    out: { type: 'string', default: path.join(here, 'results', 'peers.md') },
  },
});
const quick = flags.quick!;
const ROUNDS = Number(flags.rounds ?? (quick ? 10 : 30));
const WARMUP = Number(flags.warmup ?? (quick ? 2 : 3));
const SECTIONS = new Set((flags.only ?? 'latency,density').split(/[,|]/));
/** The densities issue 11 asks about. */
const ISSUE_DENSITIES = [1, 10, 50, 300];
const DENSITIES = (flags.densities ?? (quick ? '1,10,50' : ISSUE_DENSITIES.join(','))).split(',').map(Number);
const DENSITY_ROUNDS = Number(flags['density-rounds'] ?? (quick ? 5 : 10));
const MIN_FREE_KIB = Number(flags['min-free-gib']) * 1024 * 1024;
const POOL_SIZE = Number(flags['pool-size']);
const INSTRUCTION = 'click the Go button';
const NO_CACHE = { 'browserbase-cache-bypass': 'true' };

const fixtures = await startFixtureServer();
const PAGE = fixtures.url('forms.html');
const model = await startModelServer();
const LOOPBACK_MODEL = { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-bench', baseURL: `${model.url}/v1` };
// Every server the bench starts: sessions may reach the fixture pages, a server-wide limit above the
// highest density, no act cache on disk; the pool variables are those of issue 11's warm pool.
const SERVER_ENV = { ...ALLOW_FIXTURES, DECKHAND_MAX_SESSIONS: String(Math.max(...DENSITIES) + 20), DECKHAND_POOL_SIZE: '0' };

/** Samples of one row, in ms. */
const samples = new Map<string, number[]>();
const notes = new Map<string, string>();
function record(row: string, ms: number): void {
  samples.set(row, [...(samples.get(row) ?? []), ms]);
}
async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const result = await run();
  return [result, performance.now() - t];
}
/**
 * `run` timed into `row`, and the server process's CPU over it (utime + stime) into `row.cpu`. /proc counts
 * in ticks of 10 ms, so one sample is 0, 10, 20…; their mean over the rounds is the figure.
 */
async function timedOnServer<T>(server: DeckhandProcess, row: string, run: () => Promise<T>): Promise<T> {
  const cpu = cpuMs(server.pid);
  const [result, ms] = await timed(run);
  record(row, ms);
  record(`${row}.cpu`, cpuMs(server.pid) - cpu);
  return result;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FRAME_MS = 1000 / 60;

/**
 * One model answer scripted for the next request, which must be exactly one: a tool that asked twice
 * (a retry, a self-heal) would eat the next call's answer and the rounds would no longer compare.
 */
async function withModelAnswer<T>(answer: unknown, run: () => Promise<T>): Promise<T> {
  const before = model.requests.length;
  model.script({ json: answer });
  const result = await run();
  if (model.requests.length !== before + 1) throw new Error(`expected one model request, saw ${model.requests.length - before}`);
  return result;
}

/** The id a tool shows its model for the Go button, read from a first request the model does not answer. */
async function probeGoId(run: () => Promise<unknown>, pattern: RegExp): Promise<string> {
  await run().catch(() => undefined);
  const raw = model.requests.at(-1)?.raw ?? '';
  const id = pattern.exec(raw.replace(/\\"/g, '"'))?.[1];
  if (!id) throw new Error(`no Go button id in what the tool sent its model: ${raw.slice(0, 2000)}`);
  return id;
}

function mustSucceed(what: string, result: { success?: boolean; message?: string }): void {
  if (!result.success) throw new Error(`${what} failed: ${result.message}`);
}

// ---------------------------------------------------------------------------------------- latency

interface Op {
  name: string;
  run(): Promise<void>;
}

async function playwrightOps(): Promise<{ ops: Op[]; close(): Promise<void> }> {
  const launchArgs = { executablePath: CHROMIUM, args: CHROMIUM_ARGS };
  const browser = await chromium.launch(launchArgs);
  const context = await browser.newContext();
  // Deckhand's snapshot reads open shadow roots through this hook, which a Deckhand session always has.
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
  const page: Page = await context.newPage();
  await page.goto(PAGE);
  return {
    ops: [
      {
        name: 'pw.launch',
        async run() {
          const [other, ms] = await timed(async () => {
            const b = await chromium.launch(launchArgs);
            await b.newPage();
            return b;
          });
          record('pw.launch', ms);
          record('pw.close', (await timed(() => other.close()))[1]);
        },
      },
      { name: 'pw.click', run: async () => record('pw.click', (await timed(() => page.click('#go')))[1]) },
      { name: 'pw.snapshot', run: async () => record('pw.snapshot', (await timed(() => captureSnapshot(page)))[1]) },
      {
        name: 'pw.click+snapshot',
        run: async () => record('pw.click+snapshot', (await timed(async () => (await page.click('#go'), await captureSnapshot(page))))[1]),
      },
    ],
    close: () => browser.close(),
  };
}

async function stagehandOps(): Promise<{ ops: Op[]; close(): Promise<void> }> {
  const stagehand: Stagehand = localStagehand(LOOPBACK_MODEL);
  await stagehand.init();
  const page = stagehand.context.pages()[0] ?? (await stagehand.context.newPage());
  await page.goto(PAGE);
  const goId = await probeGoId(() => stagehand.act(INSTRUCTION), /\[(\d+-\d+)\] button: Go\b/);
  const actAnswer = { action: { elementId: goId, description: 'the Go button', method: 'click', arguments: [] }, twoStep: false };
  return {
    ops: [
      {
        name: 'sh.init',
        async run() {
          const other = localStagehand();
          record('sh.init', (await timed(() => other.init()))[1]);
          record('sh.close', (await timed(() => other.close()))[1]);
        },
      },
      {
        name: 'sh.action',
        async run() {
          const [result, ms] = await timed(() => stagehand.act({ selector: '#go', method: 'click', description: 'the Go button', arguments: [] }));
          mustSucceed('Stagehand Action act', result);
          record('sh.action', ms);
        },
      },
      {
        name: 'sh.nl',
        async run() {
          const [result, ms] = await timed(() => withModelAnswer(actAnswer, () => stagehand.act(INSTRUCTION)));
          mustSucceed('Stagehand act', result);
          record('sh.nl', ms);
        },
      },
      { name: 'sh.extract', run: async () => record('sh.extract', (await timed(() => stagehand.extract()))[1]) },
    ],
    close: () => stagehand.close(),
  };
}

/** The pool's browsers stand idle once it is warm; a server without a pool has none. */
async function warmPoolBrowsers(server: DeckhandProcess): Promise<number> {
  for (let waited = 0; waited < 15_000; waited += 250) {
    const count = browserPids(server.pid).length;
    if (count >= POOL_SIZE) return count;
    await sleep(250);
  }
  return browserPids(server.pid).length;
}

async function deckhandOps(server: DeckhandProcess, pooled: DeckhandProcess | null, warmBrowsers: number): Promise<{ ops: Op[]; close(): Promise<void> }> {
  const id: string = (await server.post('/start', { modelName: 'builtin/offline' })).sessionId;
  await server.post(`/${id}/navigate`, { url: PAGE });
  // Reads alone run on a session no act touches, as the snapshot's row reads a page no act just changed;
  // the pair row below is a read right after an act.
  const readId: string = (await server.post('/start', { modelName: 'builtin/offline' })).sessionId;
  await server.post(`/${readId}/navigate`, { url: PAGE });
  const act = async (row: string, body: unknown) => {
    const data = await timedOnServer(server, row, () => server.post(`/${id}/act`, body, NO_CACHE));
    mustSucceed(`Deckhand ${row}`, data.result);
  };
  const nlBody = { input: INSTRUCTION, options: { model: LOOPBACK_MODEL } };
  const goId = await probeGoId(() => server.post(`/${id}/act`, nlBody, NO_CACHE), /\[(\d+)\] button "Go"/);
  const actAnswer = { elementId: goId, method: 'click', arguments: [], description: 'the Go button' };
  const ops: Op[] = [
    { name: 'dh.action', run: () => act('dh.action', { input: { selector: '#go', method: 'click' } }) },
    { name: 'dh.nl.offline', run: () => act('dh.nl.offline', { input: INSTRUCTION }) },
    { name: 'dh.nl.loopback', run: () => withModelAnswer(actAnswer, () => act('dh.nl.loopback', nlBody)) },
    { name: 'dh.observe', run: () => timedOnServer(server, 'dh.observe', () => server.post(`/${readId}/observe`, {})) },
    { name: 'dh.extract', run: () => timedOnServer(server, 'dh.extract', () => server.post(`/${readId}/extract`, {})) },
    {
      name: 'dh.act+observe',
      run: () =>
        timedOnServer(server, 'dh.act+observe', async () => {
          mustSucceed('Deckhand act+observe', (await server.post(`/${id}/act`, { input: { selector: '#go', method: 'click' } }, NO_CACHE)).result);
          return server.post(`/${id}/observe`, {});
        }),
    },
    {
      name: 'dh.start.cold',
      async run() {
        // A switch (one the headless defaults already hold) keeps the session from sharing the project's
        // browser, so this start launches a Chromium of its own, as the first session of a project does.
        const body = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { args: ['--hide-scrollbars'] } } };
        const [data, ms] = await timed(() => server.post('/start', body));
        record('dh.start.cold', ms);
        record('dh.end', (await timed(() => server.post(`/${data.sessionId}/end`)))[1]);
      },
    },
    {
      name: 'dh.start.shared',
      async run() {
        const [data, ms] = await timed(() => server.post('/start', { modelName: 'builtin/offline' }));
        record('dh.start.shared', ms);
        await server.post(`/${data.sessionId}/end`);
      },
    },
  ];
  if (pooled) {
    ops.push({
      name: 'dh.start.warm',
      async run() {
        const [data, ms] = await timed(() => pooled.post('/start', { modelName: 'builtin/offline' }));
        record('dh.start.warm', ms);
        await pooled.post(`/${data.sessionId}/end`);
        // Untimed: the pool refills before anything else is measured, so its launches load no other row.
        for (let waited = 0; waited < 5_000 && browserPids(pooled.pid).length !== warmBrowsers; waited += 50) await sleep(50);
        await sleep(200);
      },
    });
  }
  return { ops, close: () => Promise.all([server.post(`/${id}/end`), server.post(`/${readId}/end`)]).then(() => undefined) };
}

async function latency(server: DeckhandProcess): Promise<void> {
  // Cold starts run on `server` (no pool); warm starts on a second server whose pool is on.
  const pooled = await startDeckhandProcess({ ...SERVER_ENV, DECKHAND_POOL_SIZE: String(POOL_SIZE), DECKHAND_POOL_MAX_AGE_MS: '600000' });
  const warmBrowsers = await warmPoolBrowsers(pooled);
  if (warmBrowsers === 0) {
    notes.set('dh.start.warm', `n/a: with DECKHAND_POOL_SIZE=${POOL_SIZE} the server kept no browser ready (no pool on this server)`);
    await pooled.close();
  }
  const peers = [await playwrightOps(), await stagehandOps(), await deckhandOps(server, warmBrowsers > 0 ? pooled : null, warmBrowsers)];
  const ops = peers.flatMap((p) => p.ops);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    if (round === WARMUP) samples.clear();
    // Each round starts at another op, so whatever the machine is doing falls on every peer alike.
    const offset = round % ops.length;
    for (const op of [...ops.slice(offset), ...ops.slice(0, offset)]) {
      // Up to one frame at random first: a click waits for animation frames, and what ran before it
      // would otherwise start it at the same point of the page's frame clock in every round.
      await sleep(Math.random() * FRAME_MS);
      await op.run().catch((error: unknown) => {
        throw new Error(`${op.name} in round ${round + 1}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
    }
    process.stderr.write(`latency round ${round + 1}/${WARMUP + ROUNDS}${round < WARMUP ? ' (warm-up)' : ''}\n`);
  }
  for (const peer of peers) await peer.close();
  if (warmBrowsers > 0) await pooled.close();
}

// ---------------------------------------------------------------------------------------- density

interface DensityRow {
  sessions: number;
  perSessionMiB: number;
  browsersMiB: number;
  serverMiB: number;
  act: number[];
  freeGiB: number;
}
const densityRows: DensityRow[] = [];
let densityStop = '';

async function density(server: DeckhandProcess): Promise<void> {
  await sleep(2000);
  const base = treeMemoryKiB(server.pid);
  const ids: string[] = [];
  // A guess until the first level is measured: what a session cost before issue 11, with room to spare.
  let perSessionKiB = 120 * 1024;
  const batch = 2; // two starts at once: the machine has two cores
  /** Starts sessions up to `level`; answers why it stopped short, or ''. */
  const rampTo = async (level: number): Promise<string> => {
    while (ids.length < level) {
      const n = Math.min(batch, level - ids.length);
      if (memAvailableKiB() - n * perSessionKiB * 1.5 < MIN_FREE_KIB) {
        return `stopped at ${ids.length} sessions on the way to ${level}: another start could leave less than ${MIN_FREE_KIB / 1024 / 1024} GiB free (other engineers share the machine)`;
      }
      try {
        await Promise.all(
          Array.from({ length: n }, async () => {
            const sessionId: string = (await server.post('/start', { modelName: 'builtin/offline' })).sessionId;
            ids.push(sessionId);
            await server.post(`/${sessionId}/navigate`, { url: PAGE });
          }),
        );
      } catch (error) {
        return `stopped at ${ids.length} sessions on the way to ${level}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    return '';
  };
  const measure = async (): Promise<void> => {
    await sleep(3000); // renderers finish loading and go idle
    const mem = treeMemoryKiB(server.pid);
    perSessionKiB = Math.max(perSessionKiB / 4, (mem.childrenPss - base.childrenPss) / ids.length);
    const act: number[] = [];
    const click = { input: { selector: '#go', method: 'click' } };
    // Spread over the sessions. Each session's first act after its navigation pays Playwright's one-off
    // setup in the new document (its injected script, tens of ms) whatever the density, so every
    // session timed gets one untimed act first: the rows then differ by density alone.
    const timedIds = Array.from({ length: DENSITY_ROUNDS }, (_, round) => ids[(round * 7919) % ids.length]!);
    for (const id of new Set(timedIds)) await server.post(`/${id}/act`, click);
    for (const id of timedIds) {
      const [data, ms] = await timed(() => server.post(`/${id}/act`, click));
      mustSucceed('Deckhand Action act', data.result);
      act.push(ms);
    }
    densityRows.push({
      sessions: ids.length,
      perSessionMiB: (mem.childrenPss + mem.serverRss - base.childrenPss - base.serverRss) / 1024 / ids.length,
      browsersMiB: mem.childrenPss / 1024,
      serverMiB: mem.serverRss / 1024,
      act,
      freeGiB: memAvailableKiB() / 1024 / 1024,
    });
    process.stderr.write(`density ${ids.length}: ${densityRows.at(-1)!.perSessionMiB.toFixed(0)} MiB per session, act median ${median(act).toFixed(0)} ms\n`);
  };
  for (const level of DENSITIES) {
    densityStop = await rampTo(level);
    // A ramp cut short is still measured where it stopped.
    if (ids.length > (densityRows.at(-1)?.sessions ?? 0)) await measure();
    if (densityStop) break;
  }
  for (let i = 0; i < ids.length; i += 4) await Promise.all(ids.slice(i, i + 4).map((id) => server.post(`/${id}/end`)));
}

// ---------------------------------------------------------------------------------------- table

const LATENCY_ROWS: Array<[string, string, string]> = [
  ['pw.launch', 'Playwright', 'launch + page (`chromium.launch` + `newPage`)'],
  ['sh.init', 'Stagehand', 'launch (`init()`, LOCAL)'],
  ['dh.start.cold', 'Deckhand', 'session start, cold (`POST /sessions/start`: no pool, a Chromium of its own launched)'],
  ['dh.start.shared', 'Deckhand', "session start, the project's browser running (a new context in it)"],
  ['dh.start.warm', 'Deckhand', `session start, warm (pool of ${POOL_SIZE})`],
  ['pw.close', 'Playwright', 'close (`browser.close`)'],
  ['sh.close', 'Stagehand', 'close (`close()`)'],
  ['dh.end', 'Deckhand', 'session end'],
  ['pw.click', 'Playwright', 'click (`page.click("#go")`)'],
  ['sh.action', 'Stagehand', 'Action act (`act({selector, method:"click"})`)'],
  ['dh.action', 'Deckhand', 'Action act over HTTP (`{selector, method:"click"}`)'],
  ['sh.nl', 'Stagehand', `natural-language act, loopback model ("${INSTRUCTION}")`],
  ['dh.nl.loopback', 'Deckhand', 'natural-language act, loopback model (same instruction, cache bypassed)'],
  ['dh.nl.offline', 'Deckhand', 'natural-language act, `builtin/offline` (cache bypassed)'],
  ['pw.snapshot', 'Deckhand core', '`captureSnapshot` in-process on the Playwright page (observe\'s floor)'],
  ['dh.observe', 'Deckhand', 'observe, no instruction (a session of its own, which no act changes)'],
  ['sh.extract', 'Stagehand', '`extract()` (page text, no model)'],
  ['dh.extract', 'Deckhand', 'extract, no instruction (page text, no model; the same session as observe)'],
  ['pw.click+snapshot', 'Playwright + Deckhand core', 'click, then `captureSnapshot` at once (pair)'],
  ['dh.act+observe', 'Deckhand', 'Action act, then observe at once (pair; the read waits for 20 ms of DOM quiet after the click)'],
];

const ms = (n: number) => (Number.isNaN(n) ? '—' : n < 10 ? n.toFixed(1) : n.toFixed(0));

function latencyTable(): string {
  const lines = ['| peer | operation | median ms | p95 ms | n | server CPU ms/op (mean) |', '|---|---|---:|---:|---:|---:|'];
  const serverCpu = (key: string) => (samples.has(`${key}.cpu`) ? mean(samples.get(`${key}.cpu`)!).toFixed(1) : '');
  for (const [key, peer, what] of LATENCY_ROWS) {
    const values = samples.get(key) ?? [];
    const note = notes.get(key);
    if (note) lines.push(`| ${peer} | ${what} | ${note} | | | |`);
    else lines.push(`| ${peer} | ${what} | ${ms(median(values))} | ${ms(percentile(values, 0.95))} | ${values.length} | ${serverCpu(key)} |`);
  }
  const ratio = (a: string, b: string) => (median(samples.get(a) ?? []) / median(samples.get(b) ?? [])).toFixed(2);
  const diff = (a: string, b: string) => (median(samples.get(a) ?? []) - median(samples.get(b) ?? [])).toFixed(0);
  lines.push(
    '',
    "Issue 11's goals, from the medians above:",
    '',
    `- Action act over HTTP / Playwright click: ${ratio('dh.action', 'pw.click')}× (goal ≤ 1.5×)`,
    `- NL act offline − Action act: ${diff('dh.nl.offline', 'dh.action')} ms (goal ≤ 50 ms)`,
    `- observe / snapshot alone: ${ratio('dh.observe', 'pw.snapshot')}× (goal ≤ 1.5×)`,
    `- warm start median: ${notes.has('dh.start.warm') ? 'n/a' : `${ms(median(samples.get('dh.start.warm') ?? []))} ms`} (goal ≤ 100 ms)`,
    '',
    "Issue 22's goals, from the same medians:",
    '',
    `- Action act over HTTP − Playwright click: ${diff('dh.action', 'pw.click')} ms (goal ≤ 10 ms)`,
    `- observe / snapshot alone: ${ratio('dh.observe', 'pw.snapshot')}× (goal ≤ 2×); right after an act, the pair against Playwright's click + snapshot: ${ratio('dh.act+observe', 'pw.click+snapshot')}×`,
    `- session end / Playwright close: ${ratio('dh.end', 'pw.close')}× (goal ≤ 1×)`,
    `- server CPU per Action act: ${serverCpu('dh.action')} ms; per offline natural-language act: ${serverCpu('dh.nl.offline')} ms (to report)`,
  );
  return lines.join('\n');
}

function densityTable(): string {
  const lines = [
    '| sessions | per session (MiB) | per extra session beyond the first level (MiB) | browsers PSS (MiB) | server RSS (MiB) | Action act median ms | p95 ms | free after (GiB) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const first = densityRows[0];
  for (const row of densityRows) {
    const extra =
      first && row.sessions > first.sessions
        ? ((row.browsersMiB + row.serverMiB - first.browsersMiB - first.serverMiB) / (row.sessions - first.sessions)).toFixed(1)
        : '—';
    lines.push(
      `| ${row.sessions} | ${row.perSessionMiB.toFixed(1)} | ${extra} | ${row.browsersMiB.toFixed(0)} | ${row.serverMiB.toFixed(0)} | ${ms(median(row.act))} | ${ms(percentile(row.act, 0.95))} | ${row.freeGiB.toFixed(1)} |`,
    );
  }
  const missing = [
    ...DENSITIES.filter((d) => !densityRows.some((r) => r.sessions >= d)).map((d) => `| ${d} | not reached | | | | | | |`),
    ...ISSUE_DENSITIES.filter((d) => !DENSITIES.includes(d)).map((d) => `| ${d} | not run (this run's densities: ${DENSITIES.join(', ')}) | | | | | | |`),
  ];
  lines.push(...missing.sort((a, b) => parseInt(a.slice(2)) - parseInt(b.slice(2))));
  const idle = median(densityRows[0]?.act ?? []);
  const last = densityRows.at(-1);
  if (last && densityRows.length > 1) lines.push('', `Act at ${last.sessions} sessions / at ${densityRows[0]!.sessions}: ${(median(last.act) / idle).toFixed(2)}× (goal ≤ 2× at 300).`);
  if (densityStop) lines.push('', `Ramp ${densityStop}.`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------- main

const loadBefore = os.loadavg()[0]!;
const server = await startDeckhandProcess(SERVER_ENV);
const cleanup = async () => {
  await server.close();
  await Promise.all([fixtures.close(), model.close()]);
};
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
try {
  if (SECTIONS.has('latency')) await latency(server);
  if (SECTIONS.has('density')) await density(server);
} finally {
  await cleanup();
}

const version = (await import('node:child_process')).execFileSync(CHROMIUM, ['--version']).toString().trim();
const command = `npm run bench:peers -- ${process.argv.slice(2).join(' ')}`.trim();
const md = `# Deckhand against its peers

Command: \`${command}\`; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${version} (\`${CHROMIUM}\`) for every peer;
${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; a machine shared with other engineers (load average
${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end).
The page is \`test/fixtures/forms.html\` on a loopback fixture server; every act clicks its Go button (and must succeed).
Playwright is playwright-core ${(await import('playwright-core/package.json', { with: { type: 'json' } })).default.version}, Stagehand is 3.7.3 in LOCAL mode, Deckhand is a real server
(\`packages/server/src/main.ts\` in a process of its own) called over HTTP on loopback (\`x-stream-response: false\`).
${
  SECTIONS.has('latency')
    ? `
## Latency

${ROUNDS} rounds after ${WARMUP} warm-up rounds (discarded); every round runs each operation once, starting at a
different operation each round so the machine's load falls on every peer alike. The loopback model answers
instantly (its time is the loopback round trip). Natural-language acts bypass Deckhand's act cache
(\`browserbase-cache-bypass\`); Stagehand has no cache configured. Warm starts run on a second server started with
\`DECKHAND_POOL_SIZE=${POOL_SIZE}\`, and the pool is left to refill (untimed) before the next operation.
The last column is the CPU of the Deckhand server process alone (utime + stime of \`/proc/<pid>/stat\`, not its
browsers) over each operation, its mean over the rounds (/proc counts in 10 ms ticks); what the server spends idle
over the same time is not subtracted (\`bench/server-cpu.ts\` does, over hundreds of operations).

${latencyTable()}
`
    : ''
}${
  SECTIONS.has('density')
    ? `
## Density

Sessions started two at a time on one server (\`DECKHAND_POOL_SIZE=0\`), each navigated to the page, then left
idle 3 s before memory is read: PSS (\`/proc/<pid>/smaps_rollup\`) summed over every process the server started,
plus the server's RSS, minus the same with no session, divided by the sessions ("per session"); "per extra
session" is the growth from the first level on, divided by the sessions added (what one more idle session costs). Then ${DENSITY_ROUNDS} Action acts
spread over the sessions, each session timed having had one untimed act first (a session's first act after
its navigation pays Playwright's one-off setup in the new document whatever the density). The ramp stops before free memory (MemAvailable) would fall
under ${MIN_FREE_KIB / 1024 / 1024} GiB.

${densityTable()}
`
    : ''
}`;
fs.mkdirSync(path.dirname(flags.out!), { recursive: true });
fs.writeFileSync(flags.out!, md);
console.log(md);
process.stderr.write(`written to ${path.relative(process.cwd(), flags.out!)}\n`);
