// What removing a dead server's replay pictures costs: a project directory like the one a checkout that
// ran the tests all day held (1,700 session directories, 9,000 small pictures, from servers that are
// gone) and one a single killed server leaves (its 32 kept sessions), swept in process (wall and CPU time,
// and the quota's walk of the project before and after), and a server's start (spawn to listening) on such a data directory against one on an empty one, interleaved.
// Run: npx tsx bench/replay-sweep.ts [rounds]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepReplayPictures } from '../packages/core/src/index.js';
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
  files: number;
  owners: number;
}

const SHAPES: Shape[] = [
  { name: `a day of tests: ${SESSIONS} sessions, ${FILES} pictures, ${OWNERS} dead owners`, layout: 'owners', sessions: SESSIONS, files: FILES, owners: OWNERS },
  { name: `the same in the flat layout (earlier versions)`, layout: 'flat', sessions: SESSIONS, files: FILES, owners: 0 },
  { name: 'one killed server: 32 sessions, 170 pictures', layout: 'owners', sessions: 32, files: 170, owners: 1 },
];

/** A data directory whose project `local` holds the pictures of dead servers, as owner directories (pids no process has) or in the flat layout. */
function deadPictures({ layout, sessions, files: total, owners }: Shape): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-bench-sweep-'));
  for (let s = 0; s < sessions; s++) {
    const owner = layout === 'owners' ? `${host}.${boot}.${pidMax + (s % owners)}.${1000 + (s % owners)}` : '';
    const dir = join(dataDir, 'local', 'replays', owner, `${s.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`);
    mkdirSync(dir, { recursive: true });
    const files = Math.floor(((s + 1) * total) / sessions) - Math.floor((s * total) / sessions);
    for (let n = 1; n <= files; n++) writeFileSync(join(dir, `${n}.jpg`), PICTURE);
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
    const dataDir = deadPictures(shape);
    const project = join(dataDir, 'local');
    walks.push((await timed(() => directorySize(project))).cpu);
    const sweep = await timed(() => sweepReplayPictures(dataDir, { flat: true }));
    if (sweep.value.owners + sweep.value.flat === 0) throw new Error('nothing swept');
    sweeps.push(sweep);
    walksAfter.push((await timed(() => directorySize(project))).cpu);
    again.push((await timed(() => sweepReplayPictures(dataDir))).wall);
    rmSync(dataDir, { recursive: true, force: true });
  }
  rows.push(`| ${shape.name} | ${median(sweeps.map((s) => s.wall)).toFixed(0)} ms | ${median(sweeps.map((s) => s.cpu)).toFixed(0)} ms | ${median(walks).toFixed(0)} ms → ${median(walksAfter).toFixed(1)} ms | ${median(again).toFixed(2)} ms |`);
}

console.log(`\nPictures of ${PICTURE.length / 1024} KiB; median of ${ROUNDS}\n`);
console.log('| What a dead server left | Sweep (wall) | Sweep (CPU) | Quota walk of the project (CPU), before → after | Next sweep, nothing to remove (wall) |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);

// Start to listening: a server on a data directory of dead pictures (swept at start) against one on an empty one.
const starts: Record<'empty' | 'dead', number[]> = { empty: [], dead: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of round % 2 === 0 ? (['empty', 'dead'] as const) : (['dead', 'empty'] as const)) {
    const dataDir = kind === 'dead' ? deadPictures(SHAPES[0]!) : mkdtempSync(join(tmpdir(), 'deckhand-bench-sweep-'));
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
  console.log(`| ${kind === 'empty' ? 'empty data directory' : `${SESSIONS} dead session directories`} | ${median(starts[kind]).toFixed(0)} ms | ${starts[kind].map((t) => t.toFixed(0)).join(', ')} |`);
}
