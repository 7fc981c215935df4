// Session density and start latency over HTTP against a real server process: memory (PSS of every
// browser process tree under the server, and the server's own RSS) and the latency of an Action act on
// a random session at 1, 10, 50, 300 live sessions, plus session start cold (no pool, no browser of the
// project yet) and warm (a pooled browser, or the project's browser shared).
// Run: npx tsx bench/density.ts [--steps 1,10,50,300] [--out bench/results/density.md] [--label text]
// It stops ramping before the machine's available memory would fall under a reserve (the machine is shared).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processTree } from '../packages/core/src/browser/chromium/process-tree.js';
import { startFixtureServer } from '../test/support/fixture-server.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : argv[at + 1]!;
};
const steps = option('steps', '1,10,50,300').split(',').map(Number);
const out = option('out', fileURLToPath(new URL('./results/density.md', import.meta.url)));
const label = option('label', '');
const ACT_ROUNDS = 20;
const START_ROUNDS = 10;
/** Never let the machine's available memory fall under this (other engineers share it). */
const RESERVE_MIB = 4096;
const START_BODY = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } };

const main = fileURLToPath(new URL('../packages/server/src/main.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const fixtures = await startFixtureServer();
const page = fixtures.url('forms.html');

interface Server {
  url: string;
  pid: number;
  child: ChildProcess;
}

async function startServerProcess(env: Record<string, string>): Promise<Server> {
  const child = spawn(tsx, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DECKHAND_LOG_LEVEL: 'error', DECKHAND_MAX_SESSIONS: '400', DECKHAND_IDLE_TIMEOUT_MS: '3600000', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      const match = text.match(/listening on (http:\/\/\S+)/);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  // tsx runs the server as its child: the server is the node process under it.
  const pid = processTree(child.pid!).find((p) => p !== child.pid && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('main.ts')) ?? child.pid!;
  return { url, pid, child };
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

async function post(server: Server, path: string, body: unknown): Promise<{ data?: { sessionId?: string }; success: boolean; message?: string }> {
  const response = await fetch(`${server.url}/v1/sessions${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as { data?: { sessionId?: string }; success: boolean; message?: string };
}

async function startSession(server: Server): Promise<{ id: string; ms: number }> {
  const t = performance.now();
  const reply = await post(server, '/start', START_BODY);
  const ms = performance.now() - t;
  if (!reply.success) throw new Error(`start failed: ${reply.message}`);
  return { id: reply.data!.sessionId!, ms };
}

async function act(server: Server, id: string): Promise<number> {
  const t = performance.now();
  const reply = await post(server, `/${id}/act`, { input: { selector: '#go', method: 'click' } });
  const ms = performance.now() - t;
  if (!reply.success) throw new Error(`act failed: ${reply.message}`);
  return ms;
}

function kib(pid: number, file: string, field: string): number {
  try {
    const line = readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) : 0;
  } catch {
    return 0;
  }
}

/** PSS (MiB) of every process under the server but the server itself: the browsers and their children. */
function browsersPssMib(server: Server): { mib: number; processes: number } {
  const pids = processTree(server.pid).filter((pid) => pid !== server.pid);
  return { mib: pids.reduce((sum, pid) => sum + kib(pid, 'smaps_rollup', 'Pss'), 0) / 1024, processes: pids.length };
}

const serverRssMib = (server: Server) => kib(server.pid, 'status', 'VmRSS') / 1024;
const availableMib = () => Number(/MemAvailable:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => quantile(values, 0.5);
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
const fmt = (n: number) => n.toFixed(0);

/** Start latency with nothing live on the server: start, navigate, end, then a pause (the pool refills). */
async function startLatency(env: Record<string, string>, shared: boolean): Promise<number[]> {
  const server = await startServerProcess(env);
  const times: number[] = [];
  try {
    await sleep(3_000);
    // A live session of the project keeps its browser: the next start shares it.
    const keeper = shared ? await startSession(server) : undefined;
    for (let round = 0; round < START_ROUNDS + 1; round++) {
      const { id, ms } = await startSession(server);
      if (round > 0) times.push(ms);
      await post(server, `/${id}/navigate`, { url: page });
      await post(server, `/${id}/end`, {});
      await sleep(1_500);
    }
    if (keeper) await post(server, `/${keeper.id}/end`, {});
  } finally {
    await stopServer(server);
  }
  return times;
}

const lines: string[] = [];
const log = (line: string) => {
  console.log(line);
  lines.push(line);
};

log(`# Session density${label ? ` (${label})` : ''}`);
log('');
log(`\`npx tsx bench/density.ts ${argv.join(' ')}\` on ${new Date().toISOString().slice(0, 16)} UTC; page ${'`forms.html`'}; act = \`{selector:"#go", method:"click"}\` over HTTP.`);
log('');
log(`## Start latency (ms over HTTP, ${START_ROUNDS} rounds, nothing else running on the server)`);
log('');
log('| start | median | p95 |');
log('|---|---:|---:|');
const cold = await startLatency({ DECKHAND_POOL_SIZE: '0' }, false);
log(`| cold (DECKHAND_POOL_SIZE=0, no browser of the project) | ${fmt(median(cold))} | ${fmt(quantile(cold, 0.95))} |`);
const warmPool = await startLatency({}, false);
log(`| warm: pooled browser (default pool) | ${fmt(median(warmPool))} | ${fmt(quantile(warmPool, 0.95))} |`);
const warmShared = await startLatency({}, true);
log(`| warm: the project's browser (one other session live) | ${fmt(median(warmShared))} | ${fmt(quantile(warmShared, 0.95))} |`);
log('');

log('## Density (one project, idle sessions on a small page)');
log('');
log('| sessions | browsers PSS MiB | processes | per extra session MiB | server RSS MiB | act median ms | act p95 ms | start median ms (ramp) |');
log('|---:|---:|---:|---:|---:|---:|---:|---:|');
const server = await startServerProcess({});
const ids: string[] = [];
let base: { n: number; mib: number } | undefined;
let perSession = 100;
try {
  await sleep(3_000);
  for (const target of steps) {
    const need = (target - ids.length) * perSession * 1.3;
    if (availableMib() - need < RESERVE_MIB) {
      log(`| ${target} | stopped: ${fmt(availableMib())} MiB available, about ${fmt(need)} MiB needed | | | | | | |`);
      break;
    }
    const starts: number[] = [];
    while (ids.length < target) {
      if (ids.length % 25 === 0 && availableMib() < RESERVE_MIB) throw new Error(`only ${fmt(availableMib())} MiB available: stopping`);
      const { id, ms } = await startSession(server);
      starts.push(ms);
      const nav = await post(server, `/${id}/navigate`, { url: page });
      if (!nav.success) throw new Error(`navigate failed: ${nav.message}`);
      ids.push(id);
    }
    await sleep(3_000);
    const memory = browsersPssMib(server);
    if (!base) base = { n: ids.length, mib: memory.mib };
    const extra = ids.length > base.n ? (memory.mib - base.mib) / (ids.length - base.n) : NaN;
    if (Number.isFinite(extra)) perSession = Math.max(extra, 20);
    const acts: number[] = [];
    for (let round = 0; round < ACT_ROUNDS + 2; round++) {
      const ms = await act(server, ids[Math.floor(Math.random() * ids.length)]!);
      if (round >= 2) acts.push(ms);
    }
    log(
      `| ${ids.length} | ${fmt(memory.mib)} | ${memory.processes} | ${Number.isFinite(extra) ? extra.toFixed(1) : '—'} | ${fmt(serverRssMib(server))} | ${fmt(median(acts))} | ${fmt(quantile(acts, 0.95))} | ${starts.length ? fmt(median(starts)) : '—'} |`,
    );
  }
} finally {
  await stopServer(server);
  await fixtures.close();
}
log('');
log('Per extra session = (PSS at N − PSS at the first step) / (N − first N). PSS covers every process under the server (browsers, their renderers and utilities, and idle pooled browsers).');
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`written to ${out}`);
