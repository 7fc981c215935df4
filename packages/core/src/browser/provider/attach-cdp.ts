// Attaches to a browser someone else runs, on a host the operator allows. Ending the session
// disconnects; it never kills that browser.
import { chromium } from 'playwright-core';
import type { CoreConfig } from '../../config.js';
import { DeckhandError } from '../../errors.js';
import type { BrowserHandle } from './browser-handle.js';
import { connectCdpWebSocket } from '../cdp/cdp-websocket.js';
import { SHADOW_HOOK_SCRIPT } from '../page-hooks/shadow-hook.js';

export async function attachOverCdp(cdpUrl: string, config: CoreConfig, connectTimeoutMs = 30_000): Promise<BrowserHandle> {
  checkAttachAllowed(cdpUrl, config.cdpAttachHosts);
  let browser;
  try {
    browser = await chromium.connectOverCDP(cdpUrl, { timeout: connectTimeoutMs });
  } catch (error) {
    throw new DeckhandError('browser_unavailable', 'Could not connect to the browser at the given cdpUrl (the detail is in the server log)', undefined, { cause: error });
  }
  const context = browser.contexts()[0] ?? (await browser.newContext());
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
  if (context.pages().length === 0) await context.newPage();
  // What the relay hands out: the browser's websocket, as Playwright resolved it (an http URL is asked for it).
  const wsUrl = await browserWsUrl(cdpUrl);
  return {
    context,
    openCdp: () => connectCdpWebSocket(wsUrl),
    isConnected: () => browser.isConnected(),
    onLost: (listener) => browser.on('disconnected', listener),
    close: () => browser.close(),
  };
}

/** `host` or `host:port` entries; `*` allows any. The scheme must be a DevTools one. */
function checkAttachAllowed(cdpUrl: string, allowed: readonly string[]): void {
  let url: URL;
  try {
    url = new URL(cdpUrl);
  } catch {
    throw new DeckhandError('validation_error', 'browser.cdpUrl must be a ws(s):// or http(s):// URL', [{ path: 'browser.cdpUrl', message: 'not a URL' }]);
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol)) {
    throw new DeckhandError('validation_error', 'browser.cdpUrl must be a ws(s):// or http(s):// URL', [{ path: 'browser.cdpUrl', message: `scheme ${url.protocol} is not allowed` }]);
  }
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'wss:' || url.protocol === 'https:' ? '443' : '80');
  const ok = allowed.some((entry) => entry === '*' || entry === host || entry === `${host}:${port}`);
  if (!ok) {
    throw new DeckhandError(
      'forbidden',
      allowed.length === 0
        ? 'Attaching to a browser by cdpUrl is switched off on this server (the operator can allow hosts with DECKHAND_CDP_ATTACH_HOSTS)'
        : `Attaching to ${url.host} is not allowed on this server (DECKHAND_CDP_ATTACH_HOSTS)`,
    );
  }
}

/** An http(s) DevTools address names its browser websocket at /json/version. */
async function browserWsUrl(cdpUrl: string): Promise<string> {
  if (!/^https?:/.test(cdpUrl)) return cdpUrl;
  const version = new URL('json/version', cdpUrl.endsWith('/') ? cdpUrl : `${cdpUrl}/`);
  const reply = (await (await fetch(version)).json()) as { webSocketDebuggerUrl?: string };
  if (!reply.webSocketDebuggerUrl) throw new DeckhandError('browser_unavailable', 'The browser at cdpUrl did not name its DevTools websocket');
  return reply.webSocketDebuggerUrl;
}
