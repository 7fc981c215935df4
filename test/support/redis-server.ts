// A real redis-server on a free loopback port with persistence off, for the cluster tests and bench:
// started, stopped (SIGTERM, or SIGKILL to play a crash) and started again on the same port.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closedPortUrl } from './closed-port';

export interface TestRedis {
  url: string;
  port: number;
  /** Stops it (its data goes with it: persistence is off). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const port = Number(new URL(await closedPortUrl()).port);
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    while (!/Ready to accept connections/.test(out)) {
      const [chunk] = await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => { throw new Error(`redis-server exited: ${out}`); })]);
      void chunk;
    }
    child.stdout!.resume();
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop(signal = 'SIGTERM') {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
    restart: start,
  };
}
