// Process facts about a session's browser, read from /proc: its processes and ports. Liveness is core's own
// check (a zombie awaiting its reaper counts as gone).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { commandLineOf, isRunning, processTree } from '../../packages/core/src/browser/chromium/process-tree';
import { rawCdp } from './raw-cdp';

export { isRunning };

/** Pids of the browser and its running child processes (renderers, GPU, utility; not one exiting meanwhile). */
export async function browserPids(cdpUrl: string): Promise<number[]> {
  return processTree(await browserPidOf(cdpUrl)).filter(isRunning);
}

/** TCP ports a process listens on (its socket inodes matched against /proc/net/tcp{,6} in LISTEN state). */
export function listeningPorts(pid: number): number[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const inodes = new Set<string>();
  for (const fd of fds) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is field 1 (hex ip:port), st is field 3 (0A = LISTEN), inode is field 9.
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.push(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** The DevTools websocket a browser started with --remote-debugging-port=0 publishes in its profile. */
export async function readDevToolsUrl(userDataDir: string): Promise<string> {
  const file = join(userDataDir, 'DevToolsActivePort');
  for (;;) {
    const [port, path] = (await readFile(file, 'utf8').catch(() => '')).split('\n').map((line) => line.trim());
    if (port && path) return `ws://127.0.0.1:${port}${path}`;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface ExternalChromium {
  /** Its browser-level DevTools websocket (it listens on a loopback port, as a browser someone else runs would). */
  cdpUrl: string;
  pid: number;
  /** Kills its whole process group and removes its profile. */
  close(): Promise<void>;
}

/** A Chromium Deckhand did not launch, for attach-mode tests. */
export async function startExternalChromium(): Promise<ExternalChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'deckhand-external-'));
  const external = spawn(
    '/usr/lib/chromium/chromium-headless-shell',
    ['--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    // Its own process group, so cleanup can kill its child processes too before removing the profile.
    { stdio: 'ignore', detached: true },
  );
  return {
    cdpUrl: await readDevToolsUrl(profile),
    pid: external.pid!,
    close: async () => {
      const exited = once(external, 'exit');
      process.kill(-external.pid!, 'SIGKILL');
      await exited;
      rmSync(profile, { recursive: true, force: true, maxRetries: 10 });
    },
  };
}

/** What the relay makes the browser write to its DevTools pipe: far more than any browser writes meanwhile on its own. */
const MARK_BYTES = 2 * 1024 * 1024;

/**
 * The pid of the browser process behind a cdpUrl, found from /proc (the relay answers nothing about
 * processes): a page of the session returns a large value, which its browser process writes to its
 * DevTools pipe, so that browser's written-bytes count (/proc/<pid>/io) grows by at least that much.
 */
export async function browserPidOf(cdpUrl: string): Promise<number> {
  const cdp = await rawCdp(cdpUrl);
  try {
    const page = (await cdp.send('Target.getTargets')).result!.targetInfos!.find((target) => target.type === 'page')!;
    const sessionId = (await cdp.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })).result!.sessionId as string;
    const before = new Map(launchedBrowsers().map((pid) => [pid, bytesWritten(pid)]));
    await cdp.send('Runtime.evaluate', { expression: `'x'.repeat(${MARK_BYTES})`, returnByValue: true }, sessionId);
    const grown = [...before].filter(([pid, written]) => bytesWritten(pid) - written >= MARK_BYTES).map(([pid]) => pid);
    if (grown.length !== 1) throw new Error(`Expected one browser to have written the mark, found ${grown.length}`);
    return grown[0]!;
  } finally {
    cdp.close();
  }
}

function bytesWritten(pid: number): number {
  try {
    return Number(/^wchar:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Browser processes (not their renderers or utilities) Deckhand launched from this process: pooled ones too. */
export function launchedBrowsers(): number[] {
  return processTree(process.pid).filter((pid) => {
    if (!isRunning(pid)) return false;
    const argv = commandLineOf(pid);
    return argv.includes('--remote-debugging-pipe') && !argv.some((arg) => arg.startsWith('--type='));
  });
}
