// The idle timeout counts every call on a session as use: a client that only lists, downloads or sends
// files, or reads cookies, keeps its session; one that stops calling still loses it.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { expectOk, useContract } from '../support/contract';

const IDLE_MS = 3_000;
const ctx = useContract({ DECKHAND_IDLE_TIMEOUT_MS: String(IDLE_MS) });

describe('the idle timeout', () => {
  it('is put off by file and cookie calls, and still ends a session nobody calls', async () => {
    const id = await ctx.startSession();
    // Three idle timeouts' worth of calls that are not operations (no act, navigate or extract).
    const until = Date.now() + 3 * IDLE_MS;
    for (let i = 0; Date.now() < until; i++) {
      expectOk(await ctx.api.call(i % 2 === 0 ? 'listFiles' : 'getCookies', { id }));
      await sleep(IDLE_MS / 6);
    }
    expectOk(await ctx.api.call('listDownloads', { id }));
    await expect.poll(async () => (await ctx.api.call('getCookies', { id })).status, { timeout: 6 * IDLE_MS, interval: IDLE_MS }).toBe(410);
  }, 60_000);
});
