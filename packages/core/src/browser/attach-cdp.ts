// Attaches to a browser someone else runs. Ending the session disconnects; it never kills that browser.
import { chromium } from 'playwright-core';
import { SHADOW_HOOK_SCRIPT } from '../dom/shadow-hook.js';
import { DeckhandError } from '../errors.js';
import type { BrowserHandle } from './browser-handle.js';

export async function attachOverCdp(cdpUrl: string, connectTimeoutMs = 30_000): Promise<BrowserHandle> {
  let browser;
  try {
    browser = await chromium.connectOverCDP(cdpUrl, { timeout: connectTimeoutMs });
  } catch (error) {
    throw new DeckhandError('browser_unavailable', 'Could not connect to the browser at the given cdpUrl (the detail is in the server log)', undefined, { cause: error });
  }
  const context = browser.contexts()[0] ?? (await browser.newContext());
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
  if (context.pages().length === 0) await context.newPage();
  return {
    context,
    cdpUrl,
    isConnected: () => browser.isConnected(),
    onLost: (listener) => browser.on('disconnected', listener),
    close: () => browser.close(),
  };
}
