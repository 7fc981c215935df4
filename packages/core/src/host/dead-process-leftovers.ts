// What a Deckhand process killed outright (kill -9, OOM, power loss) leaves behind and nothing can reach
// afterwards: its temporary directories (browser profiles and downloads, DevTools sockets) and, in each
// project's data directory, the directories named for it (process-owner.ts): replay pictures, files sent
// to its sessions and their downloads, all counting toward the project's disk quota. Every entry point
// sweeps them at start; the long-running ones again now and then, since a process sharing the data
// directory may die any time. What a live process owns is never touched.
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoreConfig } from '../config.js';
import { sweepStaleTempDirs } from '../browser/chromium/temp-dirs.js';
import { ownerGone } from './process-owner.js';

/** A running process sweeps again this often (cheap when there is nothing to remove, see bench/replay-sweep.ts). */
const LEFTOVER_SWEEP_MS = 15 * 60_000;

/** The folders of a project that hold one directory per process, named for it: `<project>/<folder>/<owner>/<session>/`. */
const OWNED_FOLDERS = ['replays', 'files', 'downloads'] as const;

/** How many directories one sweep removed, by kind. */
export interface LeftoverSweep {
  /** Temporary directories of dead processes. */
  temporaryDirectories: number;
  /** Owner directories of dead processes, per project folder: replay pictures, files sent to sessions, downloads. */
  replays: number;
  files: number;
  downloads: number;
  /** Replay session directories of the layout before owner directories (`replays/<session>/`), removed at start. */
  earlierReplays: number;
}

/**
 * Removes what dead processes left: their temporary directories, and their owner directories in every
 * project's data directory; with `atStart`, the replay directories of the earlier layout too (no process
 * of this version serves them). Nothing is followed: a project's directory, its folder and what is removed
 * must be directories themselves, not symlinks, so removals stay inside the data directory. Never throws.
 */
export async function sweepDeadProcessLeftovers(config: Pick<CoreConfig, 'dataDir'>, { atStart = false } = {}): Promise<LeftoverSweep> {
  const swept: LeftoverSweep = { temporaryDirectories: 0, replays: 0, files: 0, downloads: 0, earlierReplays: 0 };
  swept.temporaryDirectories = (await sweepStaleTempDirs().catch(() => [])).length;
  for (const project of await readdir(config.dataDir).catch(() => [] as string[])) {
    if (!(await isDirectory(join(config.dataDir, project)))) continue;
    for (const folder of OWNED_FOLDERS) {
      const top = join(config.dataDir, project, folder);
      if (!(await isDirectory(top))) continue;
      const names = await readdir(top).catch(() => [] as string[]);
      await Promise.all(
        names.map(async (name) => {
          // A session's directory name never holds a `.` (projectDirName encodes it); an owner's always does.
          const kind = name.includes('.') ? (ownerGone(name) ? folder : undefined) : atStart && folder === 'replays' ? 'earlierReplays' : undefined;
          if (!kind || !(await isDirectory(join(top, name)))) return;
          await rm(join(top, name), { recursive: true, force: true }).then(() => swept[kind]++, () => undefined);
        }),
      );
    }
  }
  return swept;
}

/**
 * An entry point's sweeps: one now, awaited (a process starts on a data directory without leftovers, so
 * its quota counts none), and with `repeat` one every LEFTOVER_SWEEP_MS in the background, off any
 * request's path, until `stop`. `onSwept` hears of each sweep that removed something.
 */
export async function startLeftoverSweeps(
  config: Pick<CoreConfig, 'dataDir'>,
  { repeat = false, onSwept = () => undefined }: { repeat?: boolean; onSwept?: (removed: Partial<LeftoverSweep>) => void } = {},
): Promise<{ stop(): void }> {
  const report = (removed: LeftoverSweep) => {
    const nonZero = Object.fromEntries(Object.entries(removed).filter(([, count]) => count > 0));
    if (Object.keys(nonZero).length > 0) onSwept(nonZero);
  };
  report(await sweepDeadProcessLeftovers(config, { atStart: true }));
  if (!repeat) return { stop: () => undefined };
  const timer = setInterval(() => void sweepDeadProcessLeftovers(config).then(report), LEFTOVER_SWEEP_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

async function isDirectory(path: string): Promise<boolean> {
  return lstat(path).then((stat) => stat.isDirectory(), () => false);
}
