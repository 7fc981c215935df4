// Tracks the page a session acts on: a page the browser opens (popup, new tab) becomes active;
// when the active page closes, the most recently opened page that is still open takes over. A page
// whose renderer dies (out of memory, Page.crash) is dropped the same way and remembered until an
// operation reports it (takeCrash): a crashed page answers nothing, and kept active it failed every
// operation after it. A page that stopped responding (a script that never yields) is dropped alike.
import type { BrowserContext, Page } from 'playwright-core';

/** A page the session lost: where it was, and whether its renderer died or stopped responding. */
export interface LostPage {
  url: string;
  cause: 'crashed' | 'hung';
}

export class ActivePage {
  private readonly open: Page[] = [];
  /** The last page that crashed or hung and has not been reported yet. */
  private lost?: LostPage;

  constructor(private readonly context: BrowserContext) {
    for (const page of context.pages()) this.adopt(page, false);
    context.on('page', (page) => this.adopt(page, true));
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
    const index = this.open.indexOf(page);
    if (index < 0) return;
    this.open.splice(index, 1);
    this.open.push(page);
  }

  /** Pages (tabs) open now. */
  get count(): number {
    return this.open.length;
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

  private adopt(page: Page, activate: boolean): void {
    if (activate || this.open.length === 0) this.open.push(page);
    else this.open.unshift(page);
    const drop = () => {
      const index = this.open.indexOf(page);
      if (index >= 0) this.open.splice(index, 1);
    };
    page.once('close', drop);
    page.once('crash', () => this.lose(page, 'crashed'));
  }
}
