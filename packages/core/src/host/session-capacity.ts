// How many sessions the machine holds when the operator does not say (DECKHAND_MAX_SESSIONS unset):
// three quarters of its memory (or of the container's limit), less a reserve for the server and the
// system, divided by what an idle session on a small page costs, with a margin for busier pages.
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';

const MIB = 1024 * 1024;
/** An idle session in a shared browser measures about 30 MiB PSS (bench/density.ts); busier pages cost more. */
export const SESSION_ESTIMATE_MIB = 48;
const RESERVE_MIB = 2048;
const MIN_SESSIONS = 4;
const MAX_SESSIONS = 1000;

/** floor((0.75 × memory − 2 GiB) / 48 MiB), within 4..1000. */
export function maxSessionsFor(memoryBytes: number): number {
  const sessions = Math.floor((0.75 * memoryBytes - RESERVE_MIB * MIB) / (SESSION_ESTIMATE_MIB * MIB));
  return Math.min(MAX_SESSIONS, Math.max(MIN_SESSIONS, sessions));
}

/** The machine's memory, or the cgroup's limit when it is lower (a container). */
export function memoryLimitBytes(): number {
  const limits = [totalmem()];
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    const value = Number(readQuietly(file));
    if (Number.isFinite(value) && value > 0) limits.push(value);
  }
  return Math.min(...limits);
}

function readQuietly(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
