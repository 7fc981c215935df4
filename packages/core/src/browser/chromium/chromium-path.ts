// Finds the Chromium binary to drive. playwright-core must always be given a path: we never download.
import { accessSync, constants } from 'node:fs';
import { DeckhandError } from '../../errors.js';

// Debian's /usr/bin/chromium-headless-shell is a shell wrapper that does not exec: the browser would
// run as its child, out of reach of signals sent to the process Playwright started. Prefer the binary.
const HEADLESS_SHELL_BINARY = '/usr/lib/chromium/chromium-headless-shell';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';

/** The headless shell starts fastest and uses about half the memory; a headed browser needs full Chromium. */
export function findChromium(headless: boolean, override?: string): string {
  const candidates = override ? [override] : headless ? [HEADLESS_SHELL_BINARY, HEADLESS_SHELL, FULL_CHROMIUM] : [FULL_CHROMIUM];
  const found = candidates.find(isExecutable);
  if (!found) {
    throw new DeckhandError('browser_unavailable', `No Chromium executable found (looked at ${candidates.join(', ')})`);
  }
  return found;
}

/** Every binary the operator allows a session to run: their configured one, else the auto-detected ones. */
export function operatorChromiumPaths(override?: string): string[] {
  return override ? [override] : [HEADLESS_SHELL_BINARY, HEADLESS_SHELL, FULL_CHROMIUM];
}

/** Full Chromium (not the headless shell) runs the WebUI omnibox renderers we switch off. */
export function isFullChromium(executablePath: string): boolean {
  return !/headless[-_]shell/.test(executablePath);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
