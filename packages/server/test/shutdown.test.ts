// `npm start`'s entry point as a real process: it serves, and SIGTERM ends every session's browser.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { START_BODY } from '../../../test/support/contract';
import { browserPids, isRunning } from '../../../test/support/processes';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

describe('server process', () => {
  it('ends every session and leaves no Chromium behind on SIGTERM', async () => {
    const child = spawn(tsx, [main], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = out.match(/listening on (http:\/\/\S+)/);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const start = async () => {
      const response = await fetch(`${url}/v1/sessions/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(START_BODY),
      });
      return ((await response.json()) as { data: { cdpUrl: string } }).data.cdpUrl;
    };
    // Both started before reading: sessions of a project share a browser, whose spare renderer the second start replaces.
    const [first, second] = [await start(), await start()];
    const pids = [...(await browserPids(first)), ...(await browserPids(second))];
    expect(pids.every(isRunning)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect.poll(() => pids.filter(isRunning), { timeout: 5000 }).toEqual([]);
  });
});
