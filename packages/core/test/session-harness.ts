// Shared setup for the core tests: a fixture server, a session manager with small limits, a
// context that collects log lines, and the page text of a selector.
import { chromium, type Browser } from 'playwright-core';
import { servePrivateCdp } from '../src/browser/cdp/cdp-websocket.js';
import { DEFAULT_CORE_CONFIG, type CoreConfig } from '../src/config.js';
import type { Session } from '../src/session/session.js';
import { createSessionManager } from '../src/session/session-manager.js';
import type { LogLine } from '../src/types.js';

export { startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server.js';

export function testManager(overrides: Partial<CoreConfig> = {}) {
  return createSessionManager({ ...DEFAULT_CORE_CONFIG, settleQuietMs: 200, ...overrides });
}

export function opContext(signal = new AbortController().signal) {
  const lines: LogLine[] = [];
  return { signal, log: (line: LogLine) => lines.push(line), lines };
}

/** The page text extract answers (no model): of the whole frame, or of `selector`, in `frameId` if given. */
export async function textOf(session: Session, selector?: string, frameId?: string): Promise<string> {
  const request = { options: selector === undefined ? {} : { selector }, ...(frameId === undefined ? {} : { frameId }) };
  return ((await session.extract(request, opContext())) as { pageText: string }).pageText;
}

/**
 * An independent Playwright client on the session's browser, through a DevTools channel of its own
 * (as the server's relay gives one); closing it leaves the session's browser running.
 */
export async function attachObserver(session: Session): Promise<Browser> {
  const endpoint = await servePrivateCdp(() => session.openCdp());
  const browser = await chromium.connectOverCDP(endpoint.url);
  browser.on('disconnected', () => void endpoint.close());
  return browser;
}
