// The `deckhand` command as npm installs it (node_modules/.bin/deckhand), run from a directory outside
// the checkout: `serve --help` lists the flags and every variable of the README's Configuration table,
// and `serve --port 0 --host 127.0.0.1` starts a server that answers /healthz and stops on SIGTERM.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../node_modules/.bin/deckhand', import.meta.url));
const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const cwd = mkdtempSync(join(tmpdir(), 'deckhand-serve-'));
const ENV = { ...process.env, DECKHAND_POOL_SIZE: '0', DECKHAND_CACHE_DIR: '', DECKHAND_DATA_DIR: join(cwd, 'data'), DECKHAND_API_KEYS: '', HOST: '', PORT: '' };

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(BIN, args, { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  // 'close', not 'exit': the child's last output may still be in the pipe when it has exited.
  return once(child, 'close').then(([code]) => ({ code: code as number | null, out, err }));
}

/** The server's variables in the README's Configuration table (the deckhand-mcp-only rows aside). */
function readmeVariables(): string[] {
  const section = README.slice(README.indexOf('## Configuration'), README.indexOf('**Auth.**'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `') && !/`deckhand-mcp[^`]*` only/.test(line))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!));
}

describe('deckhand serve', () => {
  it('--help lists --port, --host and the environment the README documents', async () => {
    const { code, out } = await run(['serve', '--help']);
    expect(code).toBe(0);
    expect(out).toContain('--port <port>');
    expect(out).toContain('--host <host>');
    const variables = readmeVariables();
    expect(variables.length).toBeGreaterThan(20);
    for (const name of variables) expect(out, name).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it('refuses a port that is not one, naming the flag', async () => {
    const { code, err } = await run(['serve', '--port', 'http']);
    expect(code).not.toBe(0);
    expect(err).toContain('--port');
  });

  it('--port 0 --host 127.0.0.1 serves /healthz, and SIGTERM stops it', async () => {
    const child = spawn(BIN, ['serve', '--port', '0', '--host', '127.0.0.1'], { cwd, env: { ...ENV, PORT: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    // Once the child has exited and its output is read to the end ('exit' can come before the last of it).
    const exited = once(child, 'close');
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${out}`)));
      });
      // --port 0 won over PORT=1.
      expect(new URL(url).port).not.toBe('1');
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true, sessions: 0 });
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await exited;
    expect(code).toBe(0);
    expect(out).toContain('SIGTERM: ending every session');
  });
});
