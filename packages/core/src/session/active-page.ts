// Tracks the page a session acts on: a page the browser opens (popup, new tab) becomes active;
// when the active page closes, the most recently opened page that is still open takes over.
import type { BrowserContext, Page } from 'playwright-core';

export class ActivePage {
  private readonly open: Page[] = [];

  constructor(private readonly context: BrowserContext) {
    for (const page of context.pages()) this.adopt(page, false);
    context.on('page', (page) => this.adopt(page, true));
  }

  /** The active page; opens a fresh one if every page was closed. */
  async current(): Promise<Page> {
    return this.open.at(-1) ?? (await this.context.newPage());
  }

  /** The active page, if any is open (never opens one: for a session that is ending). */
  get last(): Page | undefined {
    return this.open.at(-1);
  }

  /** Pages (tabs) open now. */
  get count(): number {
    return this.open.length;
  }

  private adopt(page: Page, activate: boolean): void {
    if (activate || this.open.length === 0) this.open.push(page);
    else this.open.unshift(page);
    page.once('close', () => {
      const index = this.open.indexOf(page);
      if (index >= 0) this.open.splice(index, 1);
    });
  }
}
