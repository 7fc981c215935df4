// Linux /proc helpers: find the browser process Playwright launched, and check that a tree is gone.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The browser process started with this --user-data-dir: not a renderer/zygote (those carry --type=),
 * and not a launcher script that runs the browser as its child (the innermost match wins).
 */
export function findBrowserPid(userDataDir: string): number | undefined {
  const candidates = listPids().filter((pid) => {
    const argv = commandLineOf(pid);
    return argv.includes(`--user-data-dir=${userDataDir}`) && !argv.some((arg) => arg.startsWith('--type='));
  });
  return candidates.find((pid) => !candidates.some((other) => parentOf(other) === pid));
}

/** pid and all its descendants. */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of listPids()) {
    const ppid = parentOf(pid);
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** Running, not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  const stat = readProc(pid, 'stat');
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

export function commandLineOf(pid: number): string[] {
  return readProc(pid, 'cmdline').split('\0').filter(Boolean);
}

function parentOf(pid: number): number | undefined {
  const stat = readProc(pid, 'stat');
  if (!stat) return undefined;
  // Fields after the ")" that closes the command name: state ppid ...
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

export function listPids(): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}
