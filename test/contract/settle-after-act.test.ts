// What an act starts is seen by the very next operation: a fetch, a delayed render, an SPA route change,
// a slow full navigation and a slow new tab, and page work outside timers (idle callbacks, messages, CSS
// transitions and animations, a Worker's answer), each read (observe, extract, act) right after the act
// returns, with no pause in between. The act itself may answer before the page has settled.
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickSucceeds, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();
const json = { 'x-stream-response': 'false' };

const click = (id: string, selector: string) => clickSucceeds(ctx.api, id, selector);

/** Runs `check` with the session's page as a second client on its cdpUrl sees it. */
async function onCdpPage(id: string, check: (page: Page) => Promise<void>): Promise<void> {
  const { body } = await ctx.api.call('getBrowserSession', { id });
  const browser = await chromium.connectOverCDP(body.connectUrl);
  try {
    await check(browser.contexts()[0]!.pages()[0]!);
  } finally {
    await browser.close().catch(() => {});
  }
}

async function observedDescriptions(id: string): Promise<string> {
  const reply = await ctx.api.call('observe', { id, body: {}, headers: json });
  expectOk(reply);
  return (reply.body.data.result as Array<{ description: string }>).map((action) => action.description).join('\n');
}

describe('settling after an act', () => {
  it('a fetch the act started: its rendered result is in the next extract', async () => {
    const id = await ctx.sessionOn('settle.html');
    await click(id, '#fetch');
    expect(await pageText(ctx.api, id)).toContain('Fetched result after 300 ms');
  });

  it('a render the act delayed by a timer: its element is in the next observe', async () => {
    const id = await ctx.sessionOn('settle.html');
    await click(id, '#delayed');
    expect(await observedDescriptions(id)).toMatch(/Delayed result button/);
  });

  it('a render delayed by a timer in a later click on the same page, long after the first: its element is in the next observe', async () => {
    // The second click starts no watch first: its own input restarts the one the first act left (dom/activity-watch.ts).
    // The pause outlasts the watch window (1.5 s), so a watch that was not restarted would not count the timer.
    const id = await ctx.sessionOn('settle.html');
    await click(id, '#fetch');
    expect(await pageText(ctx.api, id)).toContain('Fetched result after 300 ms');
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await click(id, '#later');
    expect(await observedDescriptions(id)).toMatch(/Later result button/);
  });

  it('an SPA route change rendered later: the next extract reads the new route', async () => {
    const id = await ctx.sessionOn('settle.html');
    await click(id, '#route');
    expect(await pageText(ctx.api, id, '#results')).toBe('Next route content Next route content button');
  });

  it('a full navigation to a slow server: the next extract reads the new page', async () => {
    const id = await ctx.sessionOn('settle.html');
    await click(id, '#navigate');
    const text = await pageText(ctx.api, id);
    expect(text).toContain('Arrived after a slow response');
    expect(text).not.toContain('Render later');
  });

  it('a form sent by a key press to a slow server: the next extract reads the new page', async () => {
    const id = await ctx.sessionOn('settle.html');
    const reply = await ctx.api.call('act', { id, body: { input: { selector: '#query', method: 'press', arguments: ['Enter'] } }, headers: json });
    expectOk(reply);
    expect(reply.body.data.result.success, reply.body.data.result.message).toBe(true);
    expect(await pageText(ctx.api, id)).toContain('Arrived after a slow response');
  });

  it('a new tab with a slow server: the next operation reads and acts in the loaded tab', async () => {
    const id = await ctx.sessionOn('settle.html');
    await click(id, '#tab');
    expect(await pageText(ctx.api, id)).toContain('Arrived after a slow response');
    await click(id, '#arrived');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: arrived');
  });

  it('a natural-language act right after an act finds the element the first act rendered late', async () => {
    const id = await ctx.sessionOn('settle.html');
    await click(id, '#delayed');
    const reply = await ctx.api.call('act', { id, body: { input: 'click the Delayed result button' }, headers: json });
    expectOk(reply);
    expect(reply.body.data.result.success, reply.body.data.result.message).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: delayed');
  });

  it('a timer set by a toggle event the click queued belongs to the act: a client on cdpUrl reads its effect as the act answers', async () => {
    // The second click's watch restarts on its own input and the page reports right after it (dom/activity-push.ts);
    // that report must come after the toggle task the click queued, or the act answers 200 ms early.
    const id = await ctx.sessionOn('settle.html');
    await onCdpPage(id, async (page) => {
      await click(id, '#same');
      await click(id, '#more');
      expect(await page.evaluate(() => document.getElementById('log')!.textContent)).toContain('toggled: more');
    });
  });

  it('a timer set by a window click listener the page added after the first act belongs to the act: a client on cdpUrl reads its effect as the act answers', async () => {
    // A plain button's click is reported as the click reaches the window (dom/click-queue.ts): that report
    // must come after every window listener, the ones the page added since the watch was installed too.
    const id = await ctx.sessionOn('settle.html');
    await onCdpPage(id, async (page) => {
      await click(id, '#same');
      await page.evaluate(() => window.addEventListener('click', () => setTimeout(() => (window as unknown as { logLine(line: string): void }).logLine('window heard the click'), 200)));
      await click(id, '#same');
      expect(await page.evaluate(() => document.getElementById('log')!.textContent)).toContain('window heard the click');
    });
  });

  it('an Action act right after a slow navigation acts on the new page, not the one it left', async () => {
    const id = await ctx.sessionOn('settle.html');
    await click(id, '#navigate');
    // Both pages have a #same button; the click must land on the page the navigation arrived at.
    await click(id, '#same');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: same, on the new page');
  });

  describe('page work outside timers, about 400 ms after the click (settle-sources.html)', () => {
    it.each([
      ['an idle-callback chain', '#idle', '#r1'],
      ['a MessageChannel loop', '#channel', '#r2'],
      ['a CSS transition (transitionend)', '#transition', '#r3'],
      ['a CSS animation (animationend)', '#animation', '#r4'],
      ['a Worker answering by postMessage', '#worker', '#r5'],
      ['a window.postMessage loop to itself', '#self', '#r6'],
      ['a scheduler.postTask with a 400 ms delay', '#posttask', '#r8'],
    ])('%s: the next extract reads its effect', async (_name, button, result) => {
      const id = await ctx.sessionOn('settle-sources.html');
      await click(id, button);
      expect(await pageText(ctx.api, id, result)).toBe(`${result.slice(1)}-DONE`);
    });

    it('a navigation after a MessageChannel loop: the next extract reads the new page', async () => {
      const id = await ctx.sessionOn('settle-sources.html');
      await click(id, '#go');
      expect(await pageText(ctx.api, id)).toContain('Arrived after a slow response');
    });

    it('a fill a MessageChannel loop clears 300 ms later does not hold', async () => {
      const id = await ctx.sessionOn('settle-sources.html');
      const reply = await ctx.api.call('act', { id, body: { input: { selector: '#cleared', method: 'fill', arguments: ['hello'] } }, headers: json });
      expectOk(reply);
      expect(reply.body.data.result.success, reply.body.data.result.message).toBe(false);
      expect(reply.body.data.result.message).toContain('did not hold');
    });

    it('a message loop that never ends does not hold the act to the settle bound', async () => {
      // The settle bound (60 s) is past the act's own deadline (20 s): counted for ever, the loop would make the act a 408.
      const id = await ctx.sessionOn('settle-sources.html', { domSettleTimeoutMs: 60_000 });
      const reply = await ctx.api.call('act', { id, body: { input: { selector: '#forever', method: 'click' }, options: { timeout: 20_000 } }, headers: json });
      expectOk(reply);
      expect(reply.body.data.result.success, reply.body.data.result.message).toBe(true);
      expect(await pageText(ctx.api, id, '#r7')).toBe('r7-DONE');
    }, 40_000);
  });
});
