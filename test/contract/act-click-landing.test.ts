// A click is what reached the element, not the input sent: a page that replaces or moves the element
// as it is pressed (its click handler never runs) gets success: false naming what happened and what
// now stands at the press point, for a natural-language act and for a structured Action alike.
import { describe, expect, it } from 'vitest';
import { actResult, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();

const act = (id: string, input: unknown) => actResult(ctx.api, id, input);
const click = (selector: string) => ({ selector, method: 'click', description: `the ${selector} button` });

describe('a click the page takes away from its element', () => {
  it('refuses a natural-language click on a button the page replaces as it is pressed', async () => {
    const id = await ctx.sessionOn('click-taken.html');
    const result = await act(id, 'click the Replace button');
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('replaced');
    expect(result.message).toContain('"Delete"');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses a structured click on a button the page replaces as it is pressed', async () => {
    const id = await ctx.sessionOn('click-taken.html');
    const result = await act(id, click('#rp'));
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('"Delete"');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses a natural-language and a structured click on a button the page moves away as it is pressed', async () => {
    const id = await ctx.sessionOn('click-taken.html');
    const spoken = await act(id, 'click the Mover button');
    expect(spoken.success, spoken.message).toBe(false);
    expect(spoken.message).toContain('moved');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    // The button now stands elsewhere: a structured click there is pressed again, and moved again (no-op).
    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('click-taken.html') } }));
    const structured = await act(id, click('#mv'));
    expect(structured.success, structured.message).toBe(false);
    expect(structured.message).toContain('moved');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('still answers success for a button that shifts a little as it is pressed and gets its click', async () => {
    const id = await ctx.sessionOn('click-taken.html');
    const result = await act(id, click('#nudge'));
    expect(result.success, result.message).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('nudged clicked');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
