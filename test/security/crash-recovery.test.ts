// Issue 17: a page whose renderer died (Page.crash through the CDP relay, or a page that allocated
// until it ran out of memory) left its session answering 500 "Internal error" forever. Now the
// crashed page is replaced by a blank one: the operation it broke, or else the next one, answers 422
// saying so, navigate carries on, and the session works as before.
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, useContract } from '../support/contract';

const ctx = useContract();

async function expectWorkingAgain(id: string): Promise<void> {
  expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') } }));
  expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } } }));
  const text = await ctx.api.call('extract', { id, body: {} });
  expectOk(text);
  expect(text.body.data.result.pageText).toMatch(/clicked: go/);
}

describe('a crashed page', () => {
  // Right after navigate, while the replay's picture of it is being taken: a renderer that died under a
  // screenshot took the whole browser with it (the session then answered 410), until the mux held Page.crash
  // back from screenshots in flight (browser/cdp/crash-gate.ts).
  it('crashed through the relay (Page.crash): the next operation says so, and the session works again', async () => {
    const id = await ctx.sessionOn('forms.html');
    const record = await ctx.api.call('getBrowserSession', { id });
    const browser = await chromium.connectOverCDP(record.body.connectUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      const cdp = await page.context().newCDPSession(page);
      const crashed = new Promise((resolve) => page.once('crash', resolve));
      void cdp.send('Page.crash').catch(() => undefined);
      await crashed;
    } finally {
      await browser.close().catch(() => undefined);
    }
    const after = await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } } });
    expect(expectError(after, 422, 'unprocessable').message).toMatch(/crashed.*forms\.html.*navigate/s);
    await expectWorkingAgain(id);
  });

  it('that ran out of memory: the act that killed it says so, and the session works again', async () => {
    const id = await ctx.sessionOn('memory-hog.html');
    const killing = await ctx.api.call('act', { id, body: { input: { selector: '#allocate', method: 'click' } } });
    expect(expectError(killing, 422, 'unprocessable').message).toMatch(/crashed.*memory-hog\.html/s);
    await expectWorkingAgain(id);
    const replay = await ctx.api.call('replaySession', { id });
    expect(JSON.stringify(replay.body)).not.toMatch(/Unexpected error/);
  }, 60_000);
});
