// Chromium writes its DevTools port and browser path to <userDataDir>/DevToolsActivePort once listening.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeckhandError } from '../errors.js';

export async function readBrowserWsUrl(userDataDir: string, timeoutMs = 5_000): Promise<string> {
  const file = join(userDataDir, 'DevToolsActivePort');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const [port, path] = text.split('\n').map((line) => line.trim());
    if (port && path) return `ws://127.0.0.1:${port}${path}`;
    if (Date.now() > deadline) {
      throw new DeckhandError('browser_unavailable', 'Chromium did not publish its DevTools endpoint');
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
