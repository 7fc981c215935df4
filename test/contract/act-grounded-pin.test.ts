// A natural-language act acts on the element it grounded: a page that swaps that element for another
// in the same place while the act is under way gets success: false and no action on the replacement.
import { describe, expect, it } from 'vitest';
import { actResult, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();

const act = (id: string, input: unknown, variables?: Record<string, string>) => actResult(ctx.api, id, input, variables);

describe('a grounded element is pinned', () => {
  it('does not click the button the page put in place of the one it chose', async () => {
    const id = await ctx.sessionOn('replaced-target.html');
    const result = await act(id, 'click the Buy now button');
    expect(result.success).toBe(false);
    expect(result.message).toContain('"Buy now"');
    expect(result.message).toContain('Delete account');
    expect(await pageText(ctx.api, id, '#log')).toContain('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('does not tick the box the page put in place of the one it chose', async () => {
    const id = await ctx.sessionOn('replaced-target.html');
    const result = await act(id, 'tick the Subscribe to news box');
    expect(result.success).toBe(false);
    expect(result.message).toContain('Erase my data');
    expect(await pageText(ctx.api, id, '#log')).toContain('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
