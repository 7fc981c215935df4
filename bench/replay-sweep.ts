// What removing what dead servers left costs (host/dead-process-leftovers.ts): a project directory like the
// one a checkout that ran the tests all day held (1,700 session directories, 9,000 small pictures, from
// servers that are gone), the same sessions' files (an upload and a download each), both together, and what
// a single killed server leaves (its 32 kept sessions), swept in process (wall and CPU time, and the quota's
// walk of the project before and after), and a server's start (spawn to listening) on a data directory of
// pictures and files against one on an empty one, interleaved.
// Run: npx tsx bench/replay-sweep.ts [rounds]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepDeadProcessLeftovers } from '../packages/core/src/index.js';
import { directorySize } from '../packages/core/src/browser/project-data/directory-size.js';
import { startNode } from '../test/support/node-process.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const SESSIONS = 1_700;
const FILES = 9_000;
const OWNERS = 170;
const PICTURE = Buffer.alloc(12 * 1024, 1);

const host = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '');
const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));

interface Shape {
  name: string;
  layout: 'owners' | 'flat';
  sessions: number;
  /** Replay pictures in all (0: none). */
  files: number;
  owners: number;
  /** Each session also holds an uploaded file (files/) and a download (downloads/). */
  sessionFiles?: boolean;
}

const SHAPES: Shape[] = [
  { name: `a day of tests: ${SESSIONS} sessions, ${FILES} pictures, ${OWNERS} dead owners`, layout: 'owners', sessions: SESSIONS, files: FILES, owners: OWNERS },
  { name: `the same in the flat layout (earlier versions)`, layout: 'flat', sessions: SESSIONS, files: FILES, owners: 0 },
  { name: `${SESSIONS} sessions' files: an upload and a download each, ${OWNERS} dead owners`, layout: 'owners', sessions: SESSIONS, files: 0, owners: OWNERS, sessionFiles: true },
  { name: `both: ${FILES} pictures and ${2 * SESSIONS} files of ${SESSIONS} sessions`, layout: 'owners', sessions: SESSIONS, files: FILES, owners: OWNERS, sessionFiles: true },
  { name: 'one killed server: 32 sessions, 170 pictures, 64 files', layout: 'owners', sessions: 32, files: 170, owners: 1, sessionFiles: true },
];

/**
 * A data directory whose project `local` holds what dead servers left, under owner directories (pids no
 * process has): replay pictures (or, in the flat layout, pictures under `replays/<session>/`) and sessions' files.
 */
function deadLeftovers({ layout, sessions, files: total, owners, sessionFiles }: Shape): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-bench-sweep-'));
  const plant = (folder: string, owner: string, session: string, names: string[]) => {
    const dir = join(dataDir, 'local', folder, owner, session);
    mkdirSync(dir, { recursive: true });
    for (const name of names) writeFileSync(join(dir, name), PICTURE);
  };
  for (let s = 0; s < sessions; s++) {
    const owner = layout === 'owners' ? `${host}.${boot}.${pidMax + (s % owners)}.${1000 + (s % owners)}` : '';
    const session = `${s.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
    const files = Math.floor(((s + 1) * total) / sessions) - Math.floor((s * total) / sessions);
    if (files > 0) plant('replays', owner, session, Array.from({ length: files }, (_, n) => `${n + 1}.jpg`));
    if (sessionFiles) {
      plant('files', owner, session, ['report.pdf']);
      plant('downloads', owner, session, ['invoice.csv']);
    }
  }
  return dataDir;
}


const ms = (ns: bigint) => Number(ns) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = await run();
  const wall = ms(process.hrtime.bigint() - start);
  const used = process.cpuUsage(cpu);
  return { value, wall, cpu: (used.user + used.system) / 1000 };
}

const rows: string[] = [];
for (const shape of SHAPES) {
  const walks: number[] = [];
  const sweeps: Array<{ wall: number; cpu: number }> = [];
  const walksAfter: number[] = [];
  const again: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = deadLeftovers(shape);
    const project = join(dataDir, 'local');
    walks.push((await timed(() => directorySize(project))).cpu);
    const sweep = await timed(() => sweepDeadProcessLeftovers({ dataDir }, { atStart: true }));
    const { temporaryDirectories: _, ...inDataDir } = sweep.value;
    if (Object.values(inDataDir).every((count) => count === 0)) throw new Error('nothing swept');
    sweeps.push(sweep);
    walksAfter.push((await timed(() => directorySize(project))).cpu);
    again.push((await timed(() => sweepDeadProcessLeftovers({ dataDir }))).wall);
    rmSync(dataDir, { recursive: true, force: true });
  }
  rows.push(`| ${shape.name} | ${median(sweeps.map((s) => s.wall)).toFixed(0)} ms | ${median(sweeps.map((s) => s.cpu)).toFixed(0)} ms | ${median(walks).toFixed(0)} ms → ${median(walksAfter).toFixed(1)} ms | ${median(again).toFixed(2)} ms |`);
}

console.log(`\nPictures and files of ${PICTURE.length / 1024} KiB; median of ${ROUNDS}\n`);
console.log('| What a dead server left | Sweep (wall) | Sweep (CPU) | Quota walk of the project (CPU), before → after | Next sweep, nothing to remove (wall) |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);

// Start to listening: a server on a data directory of dead pictures and files (swept at start) against one on an empty one.
const starts: Record<'empty' | 'dead', number[]> = { empty: [], dead: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of round % 2 === 0 ? (['empty', 'dead'] as const) : (['dead', 'empty'] as const)) {
    const dataDir = kind === 'dead' ? deadLeftovers(SHAPES[3]!) : mkdtempSync(join(tmpdir(), 'deckhand-bench-sweep-'));
    const start = process.hrtime.bigint();
    const node = await startNode({ DECKHAND_DATA_DIR: dataDir, DECKHAND_POOL_SIZE: '0', DECKHAND_LOG_LEVEL: 'warn' });
    starts[kind].push(ms(process.hrtime.bigint() - start));
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log('\n| Server start (spawn to listening, tsx) | Median | Runs |');
console.log('|---|---|---|');
for (const kind of ['empty', 'dead'] as const) {
  console.log(`| ${kind === 'empty' ? 'empty data directory' : `${SESSIONS} dead sessions' pictures and files`} | ${median(starts[kind]).toFixed(0)} ms | ${starts[kind].map((t) => t.toFixed(0)).join(', ')} |`);
}
