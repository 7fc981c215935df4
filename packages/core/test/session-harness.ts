// Shared setup for the core tests: a fixture server, a session manager with small limits, and a
// context that collects log lines.
import { DEFAULT_CORE_CONFIG, type CoreConfig } from '../src/config.js';
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

/** The text of the #log element of a frame-less fixture page. */
export const LOG_TEXT = "document.getElementById('log').innerText";
