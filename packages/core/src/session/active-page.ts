// Tracks the page a session acts on: a tab an action opened (the settle hands it over, dom/action-tabs.ts)
// becomes active; one the page opens on its own later stays behind the active page, and the next
// operation is told of it (takeUnfollowed). When the active page closes, the most recently opened page
// that is still open takes over. A page whose renderer dies (out of memory, Page.crash) is dropped the
// same way and remembered until an operation reports it (takeCrash): a crashed page answers nothing, and
// kept active it failed every operation after it. A page that stopped responding (a script that never
// yields) is dropped alike.
import type { BrowserContext, Page } from 'playwright-core';
import { onActionTab } from '../dom/action-tabs.js';

/** A page the session lost: where it was, and whether its renderer died or stopped responding. */
export interface LostPage {
  url: string;
  cause: 'crashed' | 'hung';
}

export class ActivePage {
  private readonly open: Page[] = [];
  /** The last page that crashed or hung and has not been reported yet. */
  private lost?: LostPage;
  /** Tabs opened since the last operation that no action followed, not reported yet. */
  private unfollowed: Page[] = [];

  constructor(private readonly context: BrowserContext) {
    for (const page of context.pages()) this.adopt(page);
    context.on('page', (page) => {
      if (this.open.length > 0) this.unfollowed.push(page);
      this.adopt(page);
    });
    onActionTab(context, (page) => this.activate(page));
  }

  /** The active page; opens a fresh one if every page was closed (or crashed). */
  async current(): Promise<Page> {
    return this.open.at(-1) ?? (await this.context.newPage());
  }

  /** The active page, if any is open (never opens one: for a session that is ending). */
  get last(): Page | undefined {
    return this.open.at(-1);
  }

  /** Makes an open page of the session's the active one (a client chose its tab). */
  activate(page: Page): void {
    this.unfollowed = this.unfollowed.filter((other) => other !== page);
    const index = this.open.indexOf(page);
    if (index < 0) return;
    this.open.splice(index, 1);
    this.open.push(page);
  }

  /** Pages (tabs) open now. */
  get count(): number {
    return this.open.length;
  }

  /** The tabs opened since the last call that no action followed and are still open, once. */
  takeUnfollowed(): Page[] {
    const unfollowed = this.unfollowed;
    this.unfollowed = [];
    return unfollowed;
  }

  /** The page that crashed or hung since the last call, once. */
  takeCrash(): LostPage | undefined {
    const lost = this.lost;
    this.lost = undefined;
    return lost;
  }

  /** Drops and closes a page that no longer runs script; the next operation is told as of a crash. */
  dropHung(page: Page): void {
    this.lose(page, 'hung');
  }

  private lose(page: Page, cause: LostPage['cause']): void {
    this.lost = { url: page.url(), cause };
    const index = this.open.indexOf(page);
    if (index >= 0) this.open.splice(index, 1);
    // The browser closes the target itself, so a renderer stuck in a loop does not hold this up.
    void page.close({ runBeforeUnload: false }).catch(() => undefined);
  }

  /** A new page goes just behind the active one (it takes over first if the active page closes). */
  private adopt(page: Page): void {
    this.open.splice(Math.max(0, this.open.length - 1), 0, page);
    const drop = () => {
      const index = this.open.indexOf(page);
      if (index >= 0) this.open.splice(index, 1);
      this.unfollowed = this.unfollowed.filter((other) => other !== page);
    };
    page.once('close', drop);
    page.once('crash', () => this.lose(page, 'crashed'));
  }
}
