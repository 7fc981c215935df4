// Security: no operation runs without a deadline. A page whose own script never yields cannot be
// read at all; an extract that gives no timeout is still cut by the server's default deadline
// (DECKHAND_DEFAULT_TIMEOUT_MS, short here) with the 408 shape, or the stream's error event.
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectError, useContract } from '../support/contract';

const ctx = useContract({ DECKHAND_DEFAULT_TIMEOUT_MS: '2000' });
const json = { 'x-stream-response': 'false' };

/**
 * A session on a page whose main thread is stuck in a loop, frozen through the CDP relay by a script
 * that returns first: an operation that times out on a frozen page has it replaced (hung-page.test.ts),
 * so the freezing must not be an operation of the session's.
 */
async function frozenSession(): Promise<string> {
  const id = await ctx.sessionOn('freeze.html');
  const record = await ctx.api.call('getBrowserSession', { id });
  const browser = await chromium.connectOverCDP(record.body.connectUrl);
  try {
    await browser.contexts()[0]!.pages()[0]!.evaluate(() => void setTimeout(() => { for (;;) {} }, 0));
  } finally {
    await browser.close().catch(() => undefined);
  }
  return id;
}

describe('the default deadline', () => {
  it('cuts an extract {} of a frozen page with a 408 timeout', async () => {
    const id = await frozenSession();
    expectError(await ctx.api.call('extract', { id, body: {}, headers: json }), 408, 'timeout');
  });

  it('cuts an observe of a frozen page with a 408 timeout', async () => {
    const id = await frozenSession();
    expectError(await ctx.api.call('observe', { id, body: {}, headers: json }), 408, 'timeout');
  });

  it("ends a streamed extract of a frozen page with the stream's timeout error event", async () => {
    const id = await frozenSession();
    const reply = await ctx.api.call('extract', { id, body: {}, headers: { 'x-stream-response': 'true' } });
    expect(reply.status).toBe(200);
    expect(reply.events?.at(-1)?.data).toMatchObject({ status: 'error', code: 'timeout' });
  });

  it('applies to an act that gives no timeout, and a request may give a longer one', async () => {
    const id = await ctx.sessionOn('freeze.html');
    // The click starts a fetch that answers after 3 s, and the act waits for the network to go quiet.
    const click = { selector: '#slow', method: 'click' };
    expectError(await ctx.api.call('act', { id, body: { input: click }, headers: json }), 408, 'timeout');
    const patient = await ctx.api.call('act', { id, body: { input: click, options: { timeout: 10_000 } }, headers: json });
    expect(patient.status, JSON.stringify(patient.body)).toBe(200);
    expect(patient.body.data.result.success).toBe(true);
  });
});
