// What a process keeps in a project's data directory (replay pictures, files sent to its sessions, their
// downloads) lives under a directory named for that process, <project>/<folder>/<owner>/<session>/, so
// that what a process killed outright (kill -9, OOM, power loss) left, which nothing serves any more and
// which still counts toward the project's disk quota, can be told from a live one's (servers on one
// machine may share a data directory) and removed by the next process (dead-process-leftovers.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
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
 * This process's directory name under a project's `replays/`, `files/` and `downloads/`: host (hashed),
 * boot, pid and start time. It holds a `.`, which a session's directory name never does (projectDirName
 * encodes it).
 */
export const PROCESS_OWNER = `${HOST}.${BOOT}.${process.pid}.${processStartTime(process.pid) ?? UNKNOWN}`;

const OWNER_NAME = /^([0-9a-f]{8})\.([0-9a-f]{32}|x)\.(\d+)\.(\d+|x)$/;

/**
 * Whether the process an owner directory is named for is gone: this machine restarted since it was
 * made, or its pid is free or taken by a process that started at another time. An owner on another
 * machine (a data directory on a network file system) or whose name says too little is kept.
 */
export function ownerGone(name: string): boolean {
  const owner = OWNER_NAME.exec(name);
  if (!owner || owner[1] !== HOST || owner[2] === UNKNOWN || BOOT === UNKNOWN) return false;
  if (owner[2] !== BOOT) return true;
  return owner[4] !== UNKNOWN && processStartTime(Number(owner[3])) !== owner[4];
}
