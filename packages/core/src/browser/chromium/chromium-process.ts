// Starts Chromium with DevTools over a pipe (fds 3 and 4, NUL-framed JSON) and no DevTools port: only
// this process can speak to the browser, and it decides who else may (cdp-mux.ts, the server's relay).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { CdpTransport } from '../cdp/cdp-mux.js';
import type { BrowserUser } from '../../host/browser-user.js';

export interface ChromiumProcess {
  readonly pid: number | undefined;
  readonly transport: CdpTransport;
  /** Resolves when the process has exited (crash, kill or Browser.close). */
  readonly exited: Promise<void>;
  kill(): void;
}

/**
 * What of the server's environment Chromium sees: locale, time zone, display and paths, never the
 * server's keys. As another user it gets that user's home (Chromium keeps caches there).
 */
const PASSED_ENV = /^(PATH|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|DISPLAY|WAYLAND_DISPLAY|XAUTHORITY|XDG_RUNTIME_DIR|FONTCONFIG_[A-Z_]+|HOME)$/;

export function spawnChromium(executablePath: string, args: string[], user?: BrowserUser): ChromiumProcess {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => PASSED_ENV.test(name)));
  const child: ChildProcess = spawn(executablePath, [...args, '--remote-debugging-pipe'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    // Its own process group, so a signal to the server (Ctrl-C in a terminal) is ours to handle.
    detached: true,
    env: user ? { ...env, HOME: user.home, USER: user.name, LOGNAME: user.name } : env,
    ...(user && { uid: user.uid, gid: user.gid, cwd: user.home }),
  });
  child.stderr?.resume();
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  return {
    pid: child.pid,
    transport: pipeTransport(child.stdio[3] as Writable, child.stdio[4] as Readable, exited),
    exited,
    kill: () => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    },
  };
}

function pipeTransport(toBrowser: Writable, fromBrowser: Readable, exited: Promise<void>): CdpTransport {
  const listeners: Array<(message: string) => void> = [];
  const closeListeners: Array<() => void> = [];
  let buffered: Buffer[] = [];
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    for (const listener of closeListeners) listener();
  };
  toBrowser.on('error', close);
  fromBrowser.on('error', close);
  fromBrowser.on('close', close);
  void exited.then(close);
  fromBrowser.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      buffered.push(chunk.subarray(start, end));
      const message = Buffer.concat(buffered).toString('utf8');
      buffered = [];
      start = end + 1;
      for (const listener of listeners) listener(message);
    }
    if (start < chunk.length) buffered.push(chunk.subarray(start));
  });
  return {
    send: (message) => {
      if (!open) return;
      // The commands one tick sends (Playwright often sends several at once) leave in one write.
      if (toBrowser.writableCorked === 0) {
        toBrowser.cork();
        process.nextTick(() => toBrowser.uncork());
      }
      toBrowser.write(`${message}\0`);
    },
    onMessage: (listener) => listeners.push(listener),
    onClose: (listener) => (open ? closeListeners.push(listener) : listener()),
  };
}
