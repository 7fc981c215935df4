// Tracks the page a session acts on: a page the browser opens (popup, new tab) becomes active;
// when the active page closes, the most recently opened page that is still open takes over. A page
// whose renderer dies (out of memory, Page.crash) is dropped the same way and remembered until an
// operation reports it (takeCrash): a crashed page answers nothing, and kept active it failed every
// operation after it.
import type { BrowserContext, Page } from 'playwright-core';

export class ActivePage {
  private readonly open: Page[] = [];
  /** The address of the last page that crashed and has not been reported yet. */
  private crashedAt?: string;

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

  /** The address of a page that crashed since the last call, once. */
  takeCrash(): string | undefined {
    const url = this.crashedAt;
    this.crashedAt = undefined;
    return url;
  }

  private adopt(page: Page, activate: boolean): void {
    if (activate || this.open.length === 0) this.open.push(page);
    else this.open.unshift(page);
    const drop = () => {
      const index = this.open.indexOf(page);
      if (index >= 0) this.open.splice(index, 1);
    };
    page.once('close', drop);
    page.once('crash', () => {
      this.crashedAt = page.url();
      drop();
      void page.close().catch(() => undefined);
    });
  }
}
