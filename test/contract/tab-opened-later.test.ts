// A tab the action opens belongs to the act, whether the click opens it at once or from a timer the
// click scheduled: the act waits for it and the very next read is in it. A tab the page opens after the
// act settled is the page's own doing: it opens behind the current one, which stays the session's page,
// and the next operation says so (docs/decisions.md, "Tabs opened after an action").
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickSucceeds, finishedOf, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();

const click = (id: string, selector: string) => clickSucceeds(ctx.api, id, selector);

/** Waits until the session's browser has `count` tabs, as a second client on its cdpUrl sees them. */
async function untilTabs(id: string, count: number): Promise<void> {
  const { body } = await ctx.api.call('getBrowserSession', { id });
  const browser = await chromium.connectOverCDP(body.connectUrl);
  try {
    await expect.poll(() => browser.contexts()[0]!.pages().length, { timeout: 10_000 }).toBe(count);
  } finally {
    await browser.close().catch(() => {});
  }
}

describe('tabs an action opens', () => {
  it('a tab opened by a short timer the click set: the next extract reads it, and the session stays there', async () => {
    const id = await ctx.sessionOn('tab-later.html');
    await click(id, '#soon');
    expect(await pageText(ctx.api, id)).toContain('Arrived after a slow response');
    await click(id, '#arrived');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: arrived');
  });

  it('a tab the page opens 2 s after the click: the session stays on its page, and the next operation says so', async () => {
    const id = await ctx.sessionOn('tab-later.html');
    await click(id, '#late');
    expect(await pageText(ctx.api, id, '#log')).toBe('opener page');
    await untilTabs(id, 2);
    const reply = await ctx.api.call('extract', { id, body: { options: { selector: '#log' } }, headers: { 'x-stream-response': 'true' } });
    expect(finishedOf(reply).result.pageText).toBe('opener page');
    const said = reply.events!.filter((event) => event.data.status === 'running').map((event) => event.data.message.message as string);
    expect(said.join('\n')).toMatch(/opened a tab on its own.*\/api\/slow-page/);
  });
});
