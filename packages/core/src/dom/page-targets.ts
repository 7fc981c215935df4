// The browser's page targets per browser context, known from its events (Target.targetCreated and
// targetDestroyed on one browser-level CDP session per browser), so that after an action "did it open
// a tab?" costs no round trip. The browser announces a tab here as soon as it exists, before Playwright
// does (its 'page' event waits for the page to be set up).
import type { Browser, BrowserContext } from 'playwright-core';

interface TargetInfo {
  targetId: string;
  type: string;
  browserContextId?: string;
}

/** Page target id → its browser context id, per browser; null when the browser gives no session. */
const known = new WeakMap<Browser, Promise<Map<string, string | undefined> | null>>();

async function follow(browser: Browser): Promise<Map<string, string | undefined> | null> {
  const pages = new Map<string, string | undefined>();
  try {
    const session = await browser.newBrowserCDPSession();
    session.on('Target.targetCreated', ({ targetInfo }: { targetInfo: TargetInfo }) => {
      if (targetInfo.type === 'page') pages.set(targetInfo.targetId, targetInfo.browserContextId);
    });
    session.on('Target.targetDestroyed', ({ targetId }: { targetId: string }) => pages.delete(targetId));
    // The browser announces the targets that exist already before it answers.
    await session.send('Target.setDiscoverTargets', { discover: true });
    return pages;
  } catch {
    return null;
  }
}

/** Starts following the browser's targets (once per browser); resolves when what exists now is known. */
export function followPageTargets(context: BrowserContext): Promise<Map<string, string | undefined> | null> {
  const browser = context.browser();
  if (!browser) return Promise.resolve(null);
  let pages = known.get(browser);
  if (!pages) {
    pages = follow(browser);
    known.set(browser, pages);
  }
  return pages;
}

/** How many page targets the browser has in the context with this id; null when it cannot be followed. */
export async function pageTargetsIn(context: BrowserContext, contextId: string | undefined): Promise<number | null> {
  const pages = await followPageTargets(context);
  if (!pages) return null;
  let count = 0;
  for (const owner of pages.values()) if (owner === contextId) count++;
  return count;
}
