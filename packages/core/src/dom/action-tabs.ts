// The tabs an action opened, handed to whoever keeps the session's active page (session/active-page.ts):
// the settle hands over each tab it followed, so the act and the next read are in the tab the session
// will use. A tab nobody hands over (opened after the settle ended) was the page's own doing.
import type { BrowserContext, Page } from 'playwright-core';

const takers = new WeakMap<BrowserContext, (tab: Page) => void>();

/** Calls `take` with each tab an action in this context opened, as the settle follows it. */
export function onActionTab(context: BrowserContext, take: (tab: Page) => void): void {
  takers.set(context, take);
}

/** The settle followed this tab as its action's. */
export function handActionTab(tab: Page): void {
  takers.get(tab.context())?.(tab);
}
