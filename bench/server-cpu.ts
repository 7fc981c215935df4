// The server's own CPU per operation and the acts per second one node sustains (issue 22): a real server
// process over HTTP on loopback, CPU read from /proc/<pid>/stat (user + system) over many operations,
// minus what the same server spends idle over the same time, and its browsers' CPU alongside. Then the
// load curve: Action acts from 1 to 50 concurrent clients, each on a session of its own.
//
// Run: npx tsx bench/server-cpu.ts [--ops 200] [--blocks 5] [--steps 1,5,10,20,30,50] [--step-seconds 10]
//        [--only cpu,load] [--operations action,nl.offline,observe,start+end] [--baseline DIR] [--profile DIR] [--out bench/results/server-cpu.md]
// --baseline DIR: a second server from another checkout (an older build, its node_modules linked), measured
//   in the same run, block for block interleaved with this one. --profile DIR: every server runs under
//   `node --cpu-prof` (a profile per pid); this build's top self-time frames over its last load step are printed.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ALLOW_FIXTURES, startFixtureServer } from '../test/support/fixture-server.js';
import { selfTimes } from './support/cpu-profile.js';
import { startDeckhandProcess, type DeckhandProcess } from './support/deckhand-process.js';
import { childrenCpuMs, cpuMs } from './support/proc-cpu.js';
import { median, percentile } from './support/stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    ops: { type: 'string', default: '200' },
    blocks: { type: 'string', default: '5' },
    'idle-seconds': { type: 'string', default: '5' },
    steps: { type: 'string', default: '1,5,10,20,30,50' },
    'step-seconds': { type: 'string', default: '10' },
    only: { type: 'string', default: 'cpu,load' },
    operations: { type: 'string' },
    baseline: { type: 'string' },
    profile: { type: 'string' },
    out: { type: 'string', default: path.join(here, 'results', 'server-cpu.md') },
  },
});
const OPS = Number(flags.ops);
const BLOCKS = Number(flags.blocks);
const IDLE_MS = Number(flags['idle-seconds']) * 1000;
const STEPS = flags.steps!.split(',').map(Number);
const STEP_MS = Number(flags['step-seconds']) * 1000;
const SECTIONS = new Set(flags.only!.split(','));
const NO_CACHE = { 'browserbase-cache-bypass': 'true' };
const ACTION = { input: { selector: '#go', method: 'click' } };

const fixtures = await startFixtureServer();
const PAGE = fixtures.url('forms.html');
// Every act takes its replay picture, as the first 200 of a session do by default (the runs here give a
// session thousands); the environment may say otherwise (DECKHAND_REPLAY_PICTURES=0 to see their cost).
const SERVER_ENV = {
  ...ALLOW_FIXTURES,
  DECKHAND_POOL_SIZE: '0',
  DECKHAND_MAX_SESSIONS: String(Math.max(...STEPS) + 10),
  DECKHAND_IDLE_TIMEOUT_MS: '3600000',
  DECKHAND_REPLAY_PICTURES: process.env.DECKHAND_REPLAY_PICTURES ?? '1000000',
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadBefore = os.loadavg()[0]!;

interface Build {
  label: string;
  server: DeckhandProcess;
  session: string;
}

async function openSession(server: DeckhandProcess): Promise<string> {
  const id: string = (await server.post('/start', { modelName: 'builtin/offline' })).sessionId;
  await server.post(`/${id}/navigate`, { url: PAGE });
  await server.post(`/${id}/act`, ACTION, NO_CACHE); // The first act on a page pays Playwright's one-off setup.
  return id;
}

/** Each server's data directory, fresh: the disk quota walks it at every start, so leftovers would weigh on one side. */
const dataDirs: string[] = [];

async function startBuild(label: string, root: string | undefined, nodeArgs: string[] = []): Promise<Build> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deckhand-cpu-'));
  dataDirs.push(dataDir);
  const server = await startDeckhandProcess({ ...SERVER_ENV, DECKHAND_DATA_DIR: dataDir }, { root, nodeArgs });
  return { label, server, session: await openSession(server) };
}

function mustSucceed(what: string, data: { result?: { success?: boolean; message?: string } }): void {
  if (data.result && !data.result.success) throw new Error(`${what} failed: ${data.result.message}`);
}

// ------------------------------------------------------------------------------ CPU per operation

interface Operation {
  name: string;
  what: string;
  run(build: Build): Promise<void>;
}

const ALL_OPERATIONS: Operation[] = [
  { name: 'action', what: 'Action act (`click` on `#go`, cache bypassed)', run: async (b) => mustSucceed('act', await b.server.post(`/${b.session}/act`, ACTION, NO_CACHE)) },
  { name: 'nl.offline', what: 'natural-language act, `builtin/offline` (cache bypassed)', run: async (b) => mustSucceed('act', await b.server.post(`/${b.session}/act`, { input: 'click the Go button' }, NO_CACHE)) },
  { name: 'observe', what: 'observe, no instruction', run: async (b) => void (await b.server.post(`/${b.session}/observe`, {})) },
  {
    name: 'start+end',
    what: "session start + end (in the project's running browser)",
    async run(b) {
      const id: string = (await b.server.post('/start', { modelName: 'builtin/offline' })).sessionId;
      await b.server.post(`/${id}/end`);
    },
  },
];

/** `--operations action,start+end`: only those rows. */
const OPERATIONS = flags.operations ? ALL_OPERATIONS.filter((op) => flags.operations!.split(',').includes(op.name)) : ALL_OPERATIONS;

interface Tally {
  count: number;
  serverMs: number;
  browserMs: number;
  wallMs: number;
}

/** CPU per ms of wall time an idle server (one session open on the page) and its browsers spend. */
async function idleRate(build: Build): Promise<{ server: number; browser: number }> {
  const [s, c, t] = [cpuMs(build.server.pid), childrenCpuMs(build.server.pid), performance.now()];
  await sleep(IDLE_MS);
  const wall = performance.now() - t;
  return { server: (cpuMs(build.server.pid) - s) / wall, browser: (childrenCpuMs(build.server.pid) - c) / wall };
}

async function cpuPerOperation(builds: Build[]): Promise<string[]> {
  const idle = new Map<string, { server: number; browser: number }>();
  for (const build of builds) idle.set(build.label, await idleRate(build));
  const tallies = new Map<string, Tally>();
  const perBlock = Math.ceil(OPS / BLOCKS);
  for (let block = 0; block < BLOCKS; block++) {
    // Each block starts at another operation and another build, so the machine's load falls on all alike.
    for (let o = 0; o < OPERATIONS.length; o++) {
      const op = OPERATIONS[(o + block) % OPERATIONS.length]!;
      for (let b = 0; b < builds.length; b++) {
        const build = builds[(b + block + o) % builds.length]!;
        await op.run(build); // untimed: the first after a switch pays nothing the rest do not
        const [s, c, t] = [cpuMs(build.server.pid), childrenCpuMs(build.server.pid), performance.now()];
        for (let i = 0; i < perBlock; i++) await op.run(build);
        const key = `${build.label}\0${op.name}`;
        const tally = tallies.get(key) ?? { count: 0, serverMs: 0, browserMs: 0, wallMs: 0 };
        tally.count += perBlock;
        tally.serverMs += cpuMs(build.server.pid) - s;
        tally.browserMs += childrenCpuMs(build.server.pid) - c;
        tally.wallMs += performance.now() - t;
        tallies.set(key, tally);
      }
    }
  }
  const idleLine = builds.map((b) => `${b.label}: server ${(idle.get(b.label)!.server * 1000).toFixed(1)} ms/s, browsers ${(idle.get(b.label)!.browser * 1000).toFixed(1)} ms/s`).join('; ');
  const lines = [
    `| operation | ${builds.map((b) => `${b.label}: server CPU ms/op | browsers CPU ms/op | wall ms/op`).join(' | ')} |`,
    `|---|${builds.map(() => '---|---|---|').join('')}`,
  ];
  for (const op of OPERATIONS) {
    const cells = builds.map((build) => {
      const t = tallies.get(`${build.label}\0${op.name}`)!;
      const rate = idle.get(build.label)!;
      const server = (t.serverMs - rate.server * t.wallMs) / t.count;
      const browser = (t.browserMs - rate.browser * t.wallMs) / t.count;
      return `${server.toFixed(2)} | ${browser.toFixed(2)} | ${(t.wallMs / t.count).toFixed(1)}`;
    });
    lines.push(`| ${op.what} | ${cells.join(' | ')} |`);
  }
  lines.push('', `Idle (subtracted, one session open on the page): ${idleLine}.`, `${perBlock * BLOCKS} of each operation per build, in ${BLOCKS} blocks of ${perBlock}.`);
  return lines;
}

// ---------------------------------------------------------------------------------------- load

interface Step {
  clients: number;
  acts: number;
  failed: number;
  seconds: number;
  latencies: number[];
  serverMs: number;
  browserMs: number;
}

async function loadStep(server: DeckhandProcess, sessions: string[], clients: number): Promise<Step> {
  const latencies: number[] = [];
  let failed = 0;
  const [s, c, t] = [cpuMs(server.pid), childrenCpuMs(server.pid), performance.now()];
  const until = t + STEP_MS;
  await Promise.all(
    sessions.slice(0, clients).map(async (id) => {
      while (performance.now() < until) {
        const at = performance.now();
        // An overloaded node may answer an act with a timeout: counted, and its time kept with the others.
        const data = await server.post(`/${id}/act`, ACTION, NO_CACHE).catch((error: Error) => ({ result: { success: false, message: error.message } }));
        if (!data.result?.success) failed++;
        latencies.push(performance.now() - at);
      }
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  return { clients, acts: latencies.length, failed, seconds, latencies, serverMs: cpuMs(server.pid) - s, browserMs: childrenCpuMs(server.pid) - c };
}

/** Sessions up to the highest step, each on the page, its first act done. */
async function openSessions(build: Build): Promise<string[]> {
  const sessions = [build.session];
  const want = Math.max(...STEPS);
  while (sessions.length < want) {
    const batch = Math.min(5, want - sessions.length);
    sessions.push(...(await Promise.all(Array.from({ length: batch }, () => openSession(build.server)))));
  }
  return sessions;
}

function curveTable(steps: Step[]): string[] {
  const base = percentile(steps[0]!.latencies, 0.95);
  const lines = [
    '| concurrent clients | acts/s | failed | median ms | p95 ms | p95 / p95 at 1 | server CPU (cores) | server CPU ms/act | browsers CPU ms/act |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const step of steps) {
    const p95 = percentile(step.latencies, 0.95);
    lines.push(
      `| ${step.clients} | ${(step.acts / step.seconds).toFixed(1)} | ${step.failed} | ${median(step.latencies).toFixed(1)} | ${p95.toFixed(1)} | ${(p95 / base).toFixed(2)}× | ${(step.serverMs / step.seconds / 1000).toFixed(2)} | ${(step.serverMs / step.acts).toFixed(2)} | ${(step.browserMs / step.acts).toFixed(2)} |`,
    );
  }
  const doubled = steps.find((step) => percentile(step.latencies, 0.95) >= 2 * base);
  const before = doubled ? steps[steps.indexOf(doubled) - 1] : steps.at(-1);
  const rate = (step?: Step) => (step ? `${(step.acts / step.seconds).toFixed(1)} acts/s at ${step.clients} client(s)` : 'n/a');
  const best = steps.reduce((a, b) => (b.acts / b.seconds > a.acts / a.seconds ? b : a));
  lines.push(
    '',
    (doubled ? `p95 doubles (against one client) at ${doubled.clients} clients; before it: ${rate(before)}.` : `p95 did not double up to ${steps.at(-1)!.clients} clients: ${rate(before)}.`) +
      ` Most acts/s at any step: ${rate(best)}.`,
  );
  return lines;
}

/** Every build's steps, one build after the other at each step (alternating which goes first). */
async function loadCurves(): Promise<{ tables: Map<string, string[]>; window: [number, number] }> {
  const sessions = new Map<string, string[]>();
  for (const build of builds) sessions.set(build.label, await openSessions(build));
  await sleep(2000); // renderers finish loading and go idle
  const steps = new Map<string, Step[]>(builds.map((b) => [b.label, []]));
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  let window: [number, number] = [0, 0];
  for (const [i, clients] of STEPS.entries()) {
    for (const build of i % 2 === 0 ? builds : [...builds].reverse()) {
      const from = nowUs();
      steps.get(build.label)!.push(await loadStep(build.server, sessions.get(build.label)!, clients));
      if (build === builds[0]) window = [from, nowUs()]; // this build's last step, which the profile is read over
    }
  }
  for (const build of builds) for (const id of sessions.get(build.label)!.slice(1)) await build.server.post(`/${id}/end`);
  return { tables: new Map(builds.map((b) => [b.label, curveTable(steps.get(b.label)!)])), window };
}

// ---------------------------------------------------------------------------------------- run

const profiled = flags.profile ? ['--cpu-prof', `--cpu-prof-dir=${flags.profile}`] : [];
const builds = [await startBuild('this build', undefined, profiled)];
if (flags.baseline) builds.push(await startBuild('baseline', path.resolve(flags.baseline), profiled));
if (flags.profile) console.log(`profiles: ${builds.map((b) => `${b.label} pid ${b.server.pid}`).join(', ')}`);
const out: string[] = ['# Server CPU per operation and acts/s per node', ''];
try {
  if (SECTIONS.has('cpu')) {
    const lines = await cpuPerOperation(builds);
    console.log(lines.join('\n'));
    out.push('## CPU per operation', '', ...lines, '');
  }
  let window: [number, number] | null = null;
  if (SECTIONS.has('load')) {
    const curves = await loadCurves();
    window = curves.window;
    for (const [label, lines] of curves.tables) {
      console.log(`\n${label}\n${lines.join('\n')}`);
      out.push(`## Load: Action acts for ${STEP_MS / 1000} s at each step, one client per session (${label})`, '', ...lines, '');
    }
  }
  await Promise.all(builds.map((b) => b.server.close()));
  if (flags.profile && window) {
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: the server's main thread (0), not tsx's loader thread.
    const file = readdirSync(flags.profile).filter((f) => f.includes(`.${builds[0]!.server.pid}.0.`))[0]!;
    const { total, frames, places } = selfTimes(path.join(flags.profile, file), ...window);
    const rows = (list: typeof frames) => list.slice(0, 25).map((r) => `| ${r.name} | ${r.ms.toFixed(0)} | ${(r.share * 100).toFixed(1)}% |`);
    const lines = [
      `Server profile over the last load step (${total.toFixed(0)} ms of CPU, idle excluded): top self time`,
      '',
      '| function | self ms | share |',
      '|---|---|---|',
      ...rows(frames),
      '',
      '| where | self ms | share |',
      '|---|---|---|',
      ...rows(places),
    ];
    console.log(`\n${lines.join('\n')}`);
    out.push('## Profile', '', ...lines, '');
  }
} finally {
  await Promise.all(builds.map((b) => b.server.close()));
  await fixtures.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
out.push(`Machine: ${os.cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end.`);
writeFileSync(flags.out!, out.join('\n') + '\n');
