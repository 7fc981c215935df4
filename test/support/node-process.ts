// A Deckhand node as a process of its own (npm start's entry point, PORT=0), for the cluster tests and
// bench: its URL read from what it prints, its log kept for assertions, killed or stopped like a real one.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../packages/server/src/main.ts', import.meta.url));

export interface NodeProcess {
  url: string;
  pid: number;
  /** Its stderr (JSON log lines) and stdout so far. */
  output(): string;
  /** Sends a signal (SIGTERM: drain; SIGKILL: a crash) and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code when the process exits. */
  exited: Promise<number | null>;
}

/** `main`: another checkout's entry point (the bench compares an earlier version side by side). */
export async function startNode(env: Record<string, string> = {}, main = MAIN): Promise<NodeProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'info', DECKHAND_CACHE_DIR: '', DECKHAND_MCP_INIT_RATE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  while (!/Deckhand listening on (\S+)/.test(out)) {
    if (await Promise.race([once(child.stdout!, 'data').then(() => false), exited.then(() => true)])) {
      throw new Error(`Deckhand node exited before listening:\n${out}`);
    }
  }
  return {
    url: /Deckhand listening on (\S+)/.exec(out)![1]!,
    pid: child.pid!,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
