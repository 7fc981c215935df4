// A name said whole ranks above one that only shares a word with it: "the Pay now button" is the frame's
// "Pay now", not the top-level "Pay", though the offline model reads "now" as filler.
import { describe, expect, it } from 'vitest';
import { actResult, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();

describe('an exact name ranks above a partial one', () => {
  it('observes and clicks the Pay now button in the frame, not the Pay button above it', async () => {
    const id = await ctx.sessionOn('pay-frames.html');
    const observed = await ctx.api.call('observe', { id, body: { instruction: 'the Pay now button' }, headers: { 'x-stream-response': 'false' } });
    expectOk(observed);
    const found = observed.body.data.result as Array<{ description: string }>;
    expect(found[0]?.description, JSON.stringify(found)).toContain('Pay now');
    const result = await actResult(ctx.api, id, 'click the Pay now button');
    expect(result.success, result.message).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('pay now');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
