// A press the page takes away without removing the element (an outside tester's pages): covered by
// another element as it is pressed, or taken out of the document and put back at once inside a new link
// (Chromium then gives the click to an ancestor). The element's click listener never ran, so the act
// says so, for a natural-language act and a structured Action alike; a menu that opens on mousedown over
// its own button (the page acting on the press) is still done.
import { describe, expect, it } from 'vitest';
import { actResult, expectOk, useContract } from '../support/contract';
import { NO_CACHE, resultOf } from '../support/episode-session';
import { pageText } from '../support/page-log';

const ctx = useContract();

const act = (id: string, input: unknown) => actResult(ctx.api, id, input);
const clickBox = { selector: '#t', method: 'click', description: 'the click me box' };

async function sessionIn(mode: string): Promise<string> {
  return ctx.sessionOn(`click-pressed-away.html?m=${mode}`);
}

describe('a click the page takes away on press without removing the element', () => {
  for (const [mode, what] of [['cover', 'covered'], ['relink', 'put it back'], ['linkblank', 'put it back']] as const) {
    it(`refuses a structured click on a box the page ${mode === 'cover' ? 'covers' : `wraps in a new link (${mode})`} as it is pressed`, async () => {
      const id = await sessionIn(mode);
      const result = await act(id, clickBox);
      expect(result.success, result.message).toBe(false);
      expect(result.message).toContain(what);
      expect(result.message).toContain('press point now holds');
      expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
      expectOk(await ctx.api.call('endSession', { id }));
    });
  }

  it('refuses a natural-language click on a box the page covers, naming what covers it', async () => {
    const id = await sessionIn('cover');
    const result = await act(id, 'click the click me box');
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('"other"');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses a natural-language click on a box the page wraps in a new-tab link', async () => {
    const id = await sessionIn('linkblank');
    const result = await act(id, 'click the click me box');
    expect(result.success, result.message).toBe(false);
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('does not let the agent report a covered click as done', async () => {
    const id = await sessionIn('cover');
    const reply = await ctx.api.call('agentExecute', { id, body: { agentConfig: { model: 'builtin/offline' }, executeOptions: { instruction: 'Click the click me box' } }, headers: NO_CACHE });
    const result = resultOf(reply);
    expect(result.success, result.message).toBe(false);
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('still answers success for a menu button that opens its menu over itself on mousedown', async () => {
    const id = await sessionIn('none');
    const spoken = await act(id, 'click the Options button');
    expect(spoken.success, spoken.message).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('menu open');
    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('click-pressed-away.html') } }));
    const structured = await act(id, { selector: '#menu-button', method: 'click', description: 'the Options button' });
    expect(structured.success, structured.message).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('menu open');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('still answers success for a modal menu that opens on pointerdown and makes the rest of the page inert', async () => {
    const id = await sessionIn('none');
    const result = await act(id, { selector: '#modal-menu-button', method: 'click', description: 'the Account button' });
    expect(result.success, result.message).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('account menu open');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
