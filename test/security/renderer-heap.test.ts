// One page cannot hold gigabytes: each renderer's V8 heap is capped (DECKHAND_PAGE_HEAP_MB), so a page
// that allocates without end dies alone (its renderer crashes) long before 2 GiB, and the server stays up.
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectOk, START_BODY, useContract } from '../support/contract';

const ctx = useContract({ DECKHAND_PAGE_HEAP_MB: '256' });

describe('renderer memory cap', () => {
  it('kills a page that allocates toward 2 GiB before it gets there', async () => {
    const start = await ctx.api.call('startSession', { body: START_BODY });
    expectOk(start);
    const { sessionId, cdpUrl } = start.body.data as { sessionId: string; cdpUrl: string };
    const browser = await chromium.connectOverCDP(cdpUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      let reachedMb = 0;
      page.on('console', (message) => (reachedMb = Math.max(reachedMb, Number(message.text()) || 0)));
      // 32 MiB of doubles at a time, kept alive, reporting how far it got; 2 GiB if nothing stops it.
      const allocation = page.evaluate(() => {
        const kept: number[][] = [];
        for (let mb = 32; mb <= 2048; mb += 32) {
          kept.push(new Array(4 * 1024 * 1024).fill(mb + 0.5));
          console.log(String(mb));
        }
        return kept.length * 32;
      });
      await expect(allocation).rejects.toThrow(/crash|closed|Target/i);
      expect(reachedMb).toBeGreaterThan(0);
      expect(reachedMb).toBeLessThan(1024);
    } finally {
      await browser.close().catch(() => undefined);
    }
    expect((await ctx.api.call('getHealth')).status).toBe(200);
    await ctx.api.call('endSession', { id: sessionId });
  });
});
