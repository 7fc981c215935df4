// act reports success only for what still holds once the page has settled: a value the page cut or
// cleared, a box it unticked, a selection another control reset, a file field it emptied are refused
// naming what the page did; a file field refuses files its accept or disabled state rules out; a
// confirm dismissed by default is said; a variable's date goes in as a literal one does.
import { describe, expect, it } from 'vitest';
import { actResult, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();

const act = (id: string, input: unknown, variables?: Record<string, string>) => actResult(ctx.api, id, input, variables);
const action = (selector: string, method: string, args: string[] = []) => ({ selector, method, arguments: args, description: `${method} ${selector}` });

describe('act checks the end state of what it changed', () => {
  it('refuses a fill the page cut, a tick it undid, and a chain whose later step undid an earlier one', async () => {
    const id = await ctx.sessionOn('end-state.html');
    expect(await act(id, action('#short', 'fill', ['Ada']))).toMatchObject({ success: false, message: expect.stringContaining('the page changed the field after it was typed into (it holds 2 characters, not the 3 typed)') });
    // The page unticks it on the next task: before Playwright's own check of the click, or after the act's.
    expect(await act(id, action('#fickle', 'check'))).toMatchObject({ success: false, message: expect.stringMatching(/the page unchecked it again|did not change its state/) });
    expect(await act(id, 'tick Red and Green')).toMatchObject({ success: false, message: expect.stringMatching(/Red.*did not hold after the last step: the page unchecked it again/) });
    expect(await act(id, 'select Blue in the Color and Trim dropdowns')).toMatchObject({ success: false, message: expect.stringMatching(/Color.*did not hold after the last step: the page changed its selection afterwards \(it shows "Red"\)/) });
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('sets files only on a field that takes them, and refuses files the page cleared', async () => {
    const id = await ctx.sessionOn('end-state.html');
    expectOk(await ctx.api.call('uploadFile', { id, query: { name: 'report.pdf' }, raw: new TextEncoder().encode('%PDF-1.4') }));
    expectOk(await ctx.api.call('uploadFile', { id, query: { name: 'shot.png' }, raw: new TextEncoder().encode('png') }));
    expect(await act(id, action('#photo', 'setInputFiles', ['report.pdf']))).toMatchObject({ success: false, message: expect.stringContaining('The file field accepts only .png,image/png: "report.pdf" is not one') });
    expect(await act(id, action('#picture', 'setInputFiles', ['report.pdf']))).toMatchObject({ success: false, message: expect.stringContaining('accepts only image/*') });
    expect(await act(id, action('#locked', 'setInputFiles', ['report.pdf']))).toMatchObject({ success: false, message: expect.stringContaining('The file field is disabled') });
    expect(await act(id, action('#cleared', 'setInputFiles', ['report.pdf']))).toMatchObject({ success: false, message: expect.stringContaining('the page emptied the file field') });
    expect(await act(id, action('#photo', 'setInputFiles', ['shot.png']))).toMatchObject({ success: true });
    expect(await act(id, action('#picture', 'setInputFiles', ['shot.png']))).toMatchObject({ success: true });
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('says a confirm was dismissed by default instead of reporting success', async () => {
    const id = await ctx.sessionOn('end-state.html');
    const result = await act(id, 'click Save');
    expect(result.success).toBe(false);
    expect(result.message).toContain('the page asked a confirm "Unsaved changes. Save anyway?" and it was dismissed (Cancel)');
    expect(await pageText(ctx.api, id, '#log')).toContain('not-saved');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it("types a variable's date into a date field in the field's form, and refuses a date that does not exist", async () => {
    const id = await ctx.sessionOn('end-state.html');
    expect(await act(id, 'type %d% into When', { d: '05/20/2010' })).toMatchObject({ success: true });
    expect(await pageText(ctx.api, id, '#log')).toContain('when=2010-05-20');
    const refused = await act(id, 'type %d% into When', { d: '31/02/2010' });
    expect(refused.success).toBe(false);
    expect(refused.message).not.toContain('31/02/2010');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
