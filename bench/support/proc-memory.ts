// Memory of a process tree read from /proc (Linux only): PSS shares each page among the processes
// that map it, so the PSS of many browsers sums to what they really take (RSS would count Chromium's
// shared code once per process).
import { readdirSync, readFileSync } from 'node:fs';

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null; // The process ended meanwhile, or is not ours to read.
  }
}

/** Every process below `root` (children, grandchildren, …), not `root` itself. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    // The parent pid is the second field after the parenthesised command (which may hold spaces).
    const stat = read(`/proc/${name}/stat`);
    const ppid = Number(stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isFinite(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  for (let queue = [root]; queue.length > 0; ) {
    const next = children.get(queue.shift()!) ?? [];
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

function fieldKiB(text: string | null, field: string): number {
  const match = text && new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

export function pssKiB(pid: number): number {
  return fieldKiB(read(`/proc/${pid}/smaps_rollup`), 'Pss');
}

export function rssKiB(pid: number): number {
  return fieldKiB(read(`/proc/${pid}/status`), 'VmRSS');
}

/** What the kernel thinks can still be given to programs without swapping. */
export function memAvailableKiB(): number {
  return fieldKiB(read('/proc/meminfo'), 'MemAvailable');
}

/** Chromium browser processes below `root`: a browser's helpers (renderers, zygotes, GPU, utility) run with `--type=`. */
export function browserPids(root: number): number[] {
  return descendants(root).filter((pid) => {
    const cmdline = read(`/proc/${pid}/cmdline`)?.split('\0') ?? [];
    return /chrom/i.test(cmdline[0] ?? '') && !cmdline.some((arg) => arg.startsWith('--type='));
  });
}

/** A server's own RSS, and the summed PSS of everything it started (its browsers with their helpers). */
export function treeMemoryKiB(server: number): { serverRss: number; childrenPss: number } {
  return { serverRss: rssKiB(server), childrenPss: descendants(server).reduce((sum, pid) => sum + pssKiB(pid), 0) };
}
