// CPU time of processes read from /proc (Linux only): user + system time, in ms, of one process and of
// every process below it (a server's browsers with their renderers and helpers).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { descendants } from './proc-memory.js';

/** Clock ticks per second, the unit of /proc/<pid>/stat's times (100 on nearly every Linux). */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of one process in ms (with `reaped`, plus that of its ended children it has waited for); 0 once it has ended. */
export function cpuMs(pid: number, reaped = false): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0; // Ended meanwhile.
  }
  // Fields after the parenthesised command (which may hold spaces): state is field 3, utime 14, stime 15,
  // cutime 16, cstime 17.
  const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, reaped ? 15 : 13).map(Number);
  return (ticks.reduce((a, b) => a + b, 0) * 1000) / TICKS_PER_SECOND;
}

/**
 * The summed CPU of every process below `root` (not `root` itself) alive now, with their reaped children:
 * a renderer that ended with its page still counts through the zygote that waited for it.
 */
export function childrenCpuMs(root: number): number {
  return descendants(root).reduce((sum, pid) => sum + cpuMs(pid, true), 0);
}
