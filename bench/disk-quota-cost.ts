// What a project's files cost an Action act: the disk quota measures a project by walking its data
// directory (persistent profiles, downloads, replay pictures), and a project that keeps thousands of files
// made each act that found the last measure older than 2 s wait for a walk. Two servers, this build and
// `--baseline DIR` (another checkout, its node_modules linked), each on a data directory holding `--files`
// files of the default project; acts interleaved, one per `--gap-ms` so the measure is always stale, with a
// random phase before each; latency and the server's own CPU per act (from /proc).
//
// Run: npx tsx bench/disk-quota-cost.ts --baseline DIR [--files 9000] [--rounds 30] [--gap-ms 2200]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ALLOW_FIXTURES, startFixtureServer } from '../test/support/fixture-server.js';
import { startDeckhandProcess, type DeckhandProcess } from './support/deckhand-process.js';
import { cpuMs } from './support/proc-cpu.js';
import { mean, median, percentile } from './support/stats.js';

const { values: flags } = parseArgs({
  options: {
    baseline: { type: 'string' },
    files: { type: 'string', default: '9000' },
    rounds: { type: 'string', default: '30' },
    'gap-ms': { type: 'string', default: '2200' },
  },
});
const FILES = Number(flags.files);
const ROUNDS = Number(flags.rounds);
const GAP_MS = Number(flags['gap-ms']);
const ACTION = { input: { selector: '#go', method: 'click' } };
const NO_CACHE = { 'browserbase-cache-bypass': 'true' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A data directory whose default project keeps FILES files in persistent profiles of 200 files each. */
function filledDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'deckhand-quota-'));
  for (let i = 0; i < FILES; i++) {
    const profile = path.join(dir, 'local', 'profiles', `p${Math.floor(i / 200)}`, `d${Math.floor(i / 20) % 10}`);
    if (i % 20 === 0) mkdirSync(profile, { recursive: true });
    writeFileSync(path.join(profile, `f${i}`), 'x'.repeat(512));
  }
  return dir;
}

interface Build {
  label: string;
  dataDir: string;
  server: DeckhandProcess;
  session: string;
  ms: number[];
  cpu: number[];
}

const fixtures = await startFixtureServer();
async function startBuild(label: string, root?: string): Promise<Build> {
  const dataDir = filledDataDir();
  const server = await startDeckhandProcess({ ...ALLOW_FIXTURES, DECKHAND_DATA_DIR: dataDir, DECKHAND_POOL_SIZE: '0' }, { root });
  const session: string = (await server.post('/start', { modelName: 'builtin/offline' })).sessionId;
  await server.post(`/${session}/navigate`, { url: fixtures.url('forms.html') });
  await server.post(`/${session}/act`, ACTION, NO_CACHE);
  return { label, dataDir, server, session, ms: [], cpu: [] };
}

const builds = [await startBuild('this build')];
if (flags.baseline) builds.push(await startBuild('baseline', path.resolve(flags.baseline)));
const loadBefore = os.loadavg()[0]!;
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of round % 2 ? [...builds].reverse() : builds) {
      await sleep(GAP_MS / builds.length + Math.random() * 17);
      const cpu = cpuMs(build.server.pid);
      const started = performance.now();
      await build.server.post(`/${build.session}/act`, ACTION, NO_CACHE);
      build.ms.push(performance.now() - started);
      build.cpu.push(cpuMs(build.server.pid) - cpu);
    }
  }
  console.log(`${FILES} files in the project, ${ROUNDS} acts each, one per ${GAP_MS} ms, interleaved; load ${loadBefore.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}\n`);
  console.log('| build | act median ms | act p95 ms | server CPU per act, median ms | mean ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const b of builds) {
    console.log(`| ${b.label} | ${median(b.ms).toFixed(1)} | ${percentile(b.ms, 0.95).toFixed(1)} | ${median(b.cpu).toFixed(0)} | ${mean(b.cpu).toFixed(1)} |`);
  }
} finally {
  await Promise.all(builds.map((b) => b.server.close()));
  for (const b of builds) rmSync(b.dataDir, { recursive: true, force: true });
  await fixtures.close();
}
