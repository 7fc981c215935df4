// Deckhand's temporary directories (a launched browser's profile and downloads, the private DevTools
// socket) carry their owner in the name: the pid and start time of the process that made them. A process
// killed outright (kill -9) cannot remove its own, so each start sweeps those whose owner is gone, and
// only those: many servers share /tmp, and another one's directories are in use.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLineOf, listPids } from './process-tree.js';

export type TempKind = 'profile' | 'cdp';

const OWNED = /^deckhand-(profile|cdp)-(\d+)\.(\d+)-/;

/** The start time of a process in clock ticks since boot (field 22 of /proc/<pid>/stat), or undefined when it is gone. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

const OWNER = `${process.pid}.${processStartTime(process.pid) ?? 0}`;

/** A fresh 0700 directory in the system's temp directory, named for its kind and this process. */
export function makeTempDir(kind: TempKind, parent = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, `deckhand-${kind}-${OWNER}-`));
}

/**
 * Removes the temp directories whose owner process is gone (no such pid, or a pid reused by a process that
 * started at another time) and that no running browser names as its profile; answers what it removed.
 */
export async function sweepStaleTempDirs(parent = tmpdir()): Promise<string[]> {
  const names = await readdir(parent).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const owner = OWNED.exec(name);
    return owner !== null && processStartTime(Number(owner[2])) !== owner[3];
  });
  if (stale.length === 0) return [];
  const inUse = profilesInUse();
  const removed: string[] = [];
  for (const name of stale) {
    const path = join(parent, name);
    if (inUse.has(path)) continue;
    await rm(path, { recursive: true, force: true }).then(() => removed.push(path), () => undefined);
  }
  return removed;
}

/** Every --user-data-dir a running process was started with. */
function profilesInUse(): Set<string> {
  const dirs = new Set<string>();
  for (const pid of listPids()) {
    for (const arg of commandLineOf(pid)) if (arg.startsWith('--user-data-dir=')) dirs.add(arg.slice('--user-data-dir='.length));
  }
  return dirs;
}
