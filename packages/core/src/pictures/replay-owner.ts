// Replay pictures live under a directory named for the process that took them, <project>/replays/<owner>/
// <session>/, so that those of a process killed outright (kill -9, OOM, power loss), which nothing serves
// any more and which still count toward the project's disk quota, can be told from a live server's
// (servers on one machine may share a data directory) and removed by the next server.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processStartTime } from '../browser/chromium/temp-dirs.js';

/** An unknown part of an owner's name (no /proc): such an owner is never judged gone. */
const UNKNOWN = 'x';

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '') || UNKNOWN;
  } catch {
    return UNKNOWN;
  }
}

const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const BOOT = bootId();

/**
 * This process's directory name under a project's `replays/`: host (hashed), boot, pid and start time.
 * It holds a `.`, which a session's directory name never does (projectDirName encodes it).
 */
export const REPLAY_OWNER = `${HOST}.${BOOT}.${process.pid}.${processStartTime(process.pid) ?? UNKNOWN}`;

const OWNER_NAME = /^([0-9a-f]{8})\.([0-9a-f]{32}|x)\.(\d+)\.(\d+|x)$/;

/**
 * Whether the process an owner directory is named for is gone: this machine restarted since it was
 * made, or its pid is free or taken by a process that started at another time. An owner on another
 * machine (a data directory on a network file system) or whose name says too little is kept.
 */
function ownerGone(name: string): boolean {
  const owner = OWNER_NAME.exec(name);
  if (!owner || owner[1] !== HOST || owner[2] === UNKNOWN || BOOT === UNKNOWN) return false;
  if (owner[2] !== BOOT) return true;
  return owner[4] !== UNKNOWN && processStartTime(Number(owner[3])) !== owner[4];
}

/** A running server sweeps again this often (a server on the same data directory may die any time). */
export const REPLAY_SWEEP_MS = 15 * 60_000;

export interface ReplaySweep {
  /** Owner directories removed (their process is gone). */
  owners: number;
  /** Session directories of the layout before owners (`replays/<session>/`), removed when asked. */
  flat: number;
}

/**
 * Removes, in every project's `replays/` under `dataDir`, the owner directories whose process is gone,
 * and with `flat` the session directories of earlier versions (no process serves them after a restart).
 * Nothing is followed: the data directory's entries, `replays` and what is removed must be directories
 * themselves, not symlinks, so a removal stays inside a project's replays directory.
 */
export async function sweepReplayPictures(dataDir: string, { flat = false } = {}): Promise<ReplaySweep> {
  const swept: ReplaySweep = { owners: 0, flat: 0 };
  for (const project of await readdir(dataDir).catch(() => [] as string[])) {
    const replays = join(dataDir, project, 'replays');
    if (!(await isDirectory(join(dataDir, project))) || !(await isDirectory(replays))) continue;
    const names = await readdir(replays).catch(() => [] as string[]);
    await Promise.all(
      names.map(async (name) => {
        const kind = name.includes('.') ? (ownerGone(name) ? 'owners' : undefined) : flat ? 'flat' : undefined;
        if (!kind || !(await isDirectory(join(replays, name)))) return;
        await rm(join(replays, name), { recursive: true, force: true }).then(() => swept[kind]++, () => undefined);
      }),
    );
  }
  return swept;
}

async function isDirectory(path: string): Promise<boolean> {
  return lstat(path).then((stat) => stat.isDirectory(), () => false);
}
