// A real Deckhand server in a process of its own (`npm start`'s entry point), so its memory and its
// browsers can be read apart from the bench's own, and its configuration is the environment's.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface DeckhandProcess {
  url: string;
  pid: number;
  /** POSTs JSON to `/v1/sessions<path>` and answers `data`; a non-2xx answer throws with its message. */
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
  /** SIGTERM (the server ends every session), SIGKILL after 30 s. */
  close(): Promise<void>;
}

/** `root`: another checkout of Deckhand to run (an older build, compared in the same run); `nodeArgs`: Node's own flags (`--cpu-prof`). */
export async function startDeckhandProcess(env: Record<string, string>, options: { root?: string; nodeArgs?: string[] } = {}): Promise<DeckhandProcess> {
  if (options.root) assertOwnPackages(options.root);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: options.root ?? ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`Deckhand server exited (${code}) before listening: ${stderr}`)));
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null) process.stderr.write(`Deckhand server exited with ${code}: ${stderr}\n`);
  });

  return {
    url,
    pid: child.pid!,
    async post(path, body = {}, headers = {}) {
      const response = await fetch(`${url}/v1/sessions${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-stream-response': 'false', ...headers },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as { data?: unknown; message?: string; code?: string };
      if (!response.ok) throw new Error(`${path}: ${response.status} ${json.code}: ${json.message}`);
      return json.data as any;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Another checkout must run its own packages: the workspace links in node_modules are relative, so a
 * node_modules symlinked from this checkout would run this checkout's code under the other's name. Copy
 * it with hard links instead (`cp -al <this>/node_modules <root>/`).
 */
function assertOwnPackages(root: string): void {
  const core = realpathSync(path.join(root, 'node_modules', '@deckhand', 'core'));
  if (core !== path.join(realpathSync(root), 'packages', 'core')) {
    throw new Error(`${root} would run ${core}, not its own packages: copy node_modules with \`cp -al\` instead of linking it`);
  }
}
