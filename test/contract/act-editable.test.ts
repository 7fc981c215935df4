// A fill or typing into an editor (contenteditable) succeeds only when the editor holds what was typed
// once the page settled, as for an input: an editor that upper-cases its text or moves it away, and a
// re-render that replaces the field with one holding something else, are refused, structured and in
// natural language; an editor that keeps the text succeeds.
import { describe, expect, it } from 'vitest';
import { actResult, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();

const act = (id: string, input: unknown) => actResult(ctx.api, id, input);
const action = (selector: string, method: string, args: string[]) => ({ selector, method, arguments: args, description: `${method} ${selector}` });
const refused = (what: string) => ({ success: false, message: expect.stringContaining(`${what} did not hold: the page`) });

describe('act reads an editor back like an input', () => {
  it('refuses a fill into an editor that upper-cases its text or moves it away, structured and in natural language', async () => {
    const id = await ctx.sessionOn('editors.html');
    expect(await act(id, action('#upper', 'fill', ['hello']))).toMatchObject(refused('fill #upper'));
    expect(await pageText(ctx.api, id, '#upper')).toBe('HELLO');
    expect(await act(id, action('#move', 'fill', ['hello']))).toMatchObject({ success: false, message: expect.stringContaining('the page emptied the field after it was typed into') });
    expect(await act(id, 'type hello into the Notes field')).toMatchObject({ success: false, message: expect.stringContaining('the page emptied the field') });
    expect(await act(id, 'type hello into the Body field')).toMatchObject({ success: false, message: expect.stringContaining('it holds 5 characters, not the 5 typed') });
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses keys typed into an editor or an input that rewrites them, and keeps those an editor holds', async () => {
    const id = await ctx.sessionOn('editors.html');
    expect(await act(id, action('#upper', 'type', ['abc']))).toMatchObject({ success: false, message: expect.stringContaining('the 3 characters typed are not in the') });
    expect(await act(id, action('#move', 'type', ['abc']))).toMatchObject({ success: false, message: expect.stringContaining('the page emptied the field') });
    expect(await act(id, action('#plain', 'type', ['abc']))).toMatchObject({ success: true });
    expect(await pageText(ctx.api, id, '#plain')).toContain('abc');
    expect(await act(id, action('#plain', 'fill', ['hello there']))).toMatchObject({ success: true });
    expect(await pageText(ctx.api, id, '#plain')).toBe('hello there');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('reads the element a re-render put in place of the one typed into', async () => {
    const id = await ctx.sessionOn('editors.html');
    expect(await act(id, 'type hello into the Draft field')).toMatchObject({ success: false, message: expect.stringContaining('it holds 5 characters, not the 5 typed') });
    expect(await pageText(ctx.api, id, '#draft')).toBe('HELLO');
    expect(await act(id, 'type abc into the Code field')).toMatchObject({ success: false, message: expect.stringContaining('it holds 3 characters, not the 3 typed') });
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
