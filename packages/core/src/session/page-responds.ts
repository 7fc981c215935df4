// Whether a page's renderer still runs script: a page stuck in a loop that never yields answers no
// operation again, so one that timed out is asked this before the session carries on with it.
import type { Page } from 'playwright-core';

/** How long a page has to evaluate `1` before it counts as unresponsive. */
export const RESPONSIVE_WITHIN_MS = 2000;

/** True when the page evaluates `1` within `withinMs` (a closed or crashed page is not asked: true). */
export async function pageResponds(page: Page, withinMs = RESPONSIVE_WITHIN_MS): Promise<boolean> {
  if (page.isClosed()) return true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
  const answer = (async () => {
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('Runtime.evaluate', { expression: '1', returnByValue: true });
      return true;
    } finally {
      void cdp.detach().catch(() => undefined);
    }
  })().catch(() => true); // a page that went away meanwhile is the crash handling's, not this
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
