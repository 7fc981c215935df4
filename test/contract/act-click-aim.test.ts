// How an act's click aims (act/pointer-click.ts), through the HTTP API: the element a plain selector
// names is the one Playwright's locator names (the light tree before shadow roots), a selector only a
// shadow root answers and Playwright's own syntax still work, an element under a sticky header or with
// display: contents is clicked, and nothing that stands over the element, for good or put there as the
// pointer comes, ever gets the click.
import { describe, expect, it } from 'vitest';
import { actResult, clickSucceeds, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();
const click = (id: string, selector: string) => actResult(ctx.api, id, { selector, method: 'click' });

describe('an act clicks the element a pointer would', () => {
  it('takes the light tree match of a compound selector before a shadow root one, as Playwright does', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    await clickSucceeds(ctx.api, id, 'button.act');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: light');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('finds a button only an open shadow root holds, and one named in Playwright syntax', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    await clickSucceeds(ctx.api, id, '#shadow-only');
    await clickSucceeds(ctx.api, id, 'text=Light');
    await clickSucceeds(ctx.api, id, '//button[@id="light"]');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: shadow-only; clicked: light; clicked: light');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('clicks a button far down the page, not the sticky header over it, and one with display: contents', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    await clickSucceeds(ctx.api, id, '#far');
    await clickSucceeds(ctx.api, id, '#contents');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: far; clicked: contents');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses a button a veil covers for good, naming the veil, and never clicks the veil', async () => {
    const id = await ctx.sessionOn('click-aim.html?veil');
    const result = await click(id, '#veiled');
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('"Loading"');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('holds back a press that lands on a promotion the page puts over the button as the pointer comes', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    const result = await click(id, '#hover');
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('put another element over the element chosen');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses a disabled button, saying so', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    const result = await click(id, '#disabled');
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('disabled');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
