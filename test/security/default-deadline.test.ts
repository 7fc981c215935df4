// Security: no operation runs without a deadline. A page whose own script never yields cannot be
// read at all; an extract that gives no timeout is still cut by the server's default deadline
// (DECKHAND_DEFAULT_TIMEOUT_MS, short here) with the 408 shape, or the stream's error event.
import { describe, expect, it } from 'vitest';
import { expectError, useContract } from '../support/contract';

const ctx = useContract({ DECKHAND_DEFAULT_TIMEOUT_MS: '2000' });
const json = { 'x-stream-response': 'false' };

/** A session on a page whose main thread is stuck in a loop. */
async function frozenSession(): Promise<string> {
  const id = await ctx.sessionOn('freeze.html');
  // The click never returns (the page loops in its handler), so the act ends at its timeout: the page is frozen.
  // The timeout leaves a loaded machine time to find and click the button (a lookup cut short freezes nothing).
  const act = await ctx.api.call('act', { id, body: { input: { selector: '#freeze', method: 'click' }, options: { timeout: 5000 } }, headers: json });
  expect([200, 408]).toContain(act.status);
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
