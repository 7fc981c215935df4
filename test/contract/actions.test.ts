// act with an Action object: every method, CSS and deep XPath selectors across frames and shadow
// roots, variables, timeouts, and honest failures.
import { describe, expect, it } from 'vitest';
import { expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();

async function act(id: string, input: Record<string, unknown>, options?: Record<string, unknown>, frameId?: string) {
  const reply = await ctx.api.call('act', { id, body: { input, options, frameId }, headers: { 'x-stream-response': 'false' } });
  expectOk(reply);
  expect(reply.body.data.actionId).toMatch(/^[0-9a-f-]{36}$/);
  return reply.body.data.result as { success: boolean; message: string; actionDescription: string; actions: Array<Record<string, unknown>> };
}

describe('act with an Action', () => {
  it('clicks, hovers, presses and drags on the forms page', async () => {
    const id = await ctx.sessionOn('forms.html');
    const clicked = await act(id, { selector: '#go', method: 'click', description: 'the Go button' });
    expect(clicked).toMatchObject({ success: true, actionDescription: 'the Go button' });
    expect(clicked.actions[0]).toMatchObject({ selector: '#go', method: 'click' });
    expect((await act(id, { selector: '/html/body/div[1]', method: 'hover' })).success).toBe(true);
    expect((await act(id, { selector: '#keys', method: 'press', arguments: ['Enter'] })).success).toBe(true);
    expect((await act(id, { selector: '#drag-source', method: 'dragAndDrop', arguments: ['#drop-target'] })).success).toBe(true);
    const log = await pageText(ctx.api, id, '#log');
    expect(log).toContain('clicked: go');
    expect(log).toContain('hovered');
    expect(log).toContain('key: Enter');
    expect(log).toContain('dropped: drag-source');
  });

  it('fills and types, with %variables% substituted at execution and never echoed', async () => {
    const id = await ctx.sessionOn('forms.html');
    const secret = 'hunter2-correct-horse';
    const options = { variables: { password: { value: secret, description: 'the password' }, user: 'Ada' } };
    const filled = await act(id, { selector: '#name', method: 'fill', arguments: ['%user%'] }, options);
    expect(filled.actions[0]!.arguments).toEqual(['%user%']);
    const typed = await act(id, { selector: '#password', method: 'type', arguments: ['%password%'] }, options);
    expect(JSON.stringify(typed)).not.toContain(secret);
    await act(id, { selector: '#bio', method: 'fill', arguments: ['Hello'] });
    await act(id, { selector: '#submit', method: 'click' });
    // Variable values are masked wherever the session reads them back, so the page's echo of the name
    // shows the mask where the value stands (a literal "%user%" would show itself).
    expect(await pageText(ctx.api, id, '#result')).toBe(`submitted: •••• / / ${secret.length} chars / Hello`);
    const replay = await ctx.api.call('replaySession', { id });
    expect(JSON.stringify(replay.body)).not.toContain(secret);
    expect(ctx.server.logs.join('\n')).not.toContain(secret);
  });

  it('selects an option, checks and unchecks', async () => {
    const id = await ctx.sessionOn('select.html');
    expect((await act(id, { selector: '#color', method: 'selectOptionFromDropdown', arguments: ['Green'] })).success).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toContain('selected: g');
    await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('checkboxes.html') } });
    await act(id, { selector: '#terms', method: 'check' });
    await act(id, { selector: '#news', method: 'uncheck' });
    const log = await pageText(ctx.api, id, '#log');
    expect(log).toContain('terms: true');
    expect(log).toContain('news: false');
  });

  it('scrolls the page and a container: scrollTo, scrollIntoView, nextChunk, prevChunk', async () => {
    const id = await ctx.sessionOn('long-list.html');
    for (const input of [
      { selector: '/html', method: 'scrollTo', arguments: ['50%'] },
      { selector: '#scroller', method: 'nextChunk' },
      { selector: '#scroller', method: 'prevChunk' },
      { selector: '#items > li:nth-child(250)', method: 'scrollIntoView' },
      { selector: '#scroller', method: 'scrollTo', arguments: ['100'] },
    ]) {
      const result = await act(id, input);
      expect(result.success, `${input.method}: ${result.message}`).toBe(true);
    }
  });

  it('acts inside a same-origin iframe, a cross-origin iframe, and open and closed shadow roots', async () => {
    const same = await ctx.sessionOn('iframe.html');
    expect((await act(same, { selector: '/html/body/div[1]/iframe[1]/html/body/button[1]', method: 'click' })).success).toBe(true);
    expect(await pageText(ctx.api, same)).toContain('clicked: inner');

    const cross = await ctx.sessionOn('cross-iframe.html');
    const typed = await act(cross, { selector: '/html/body/div[1]/iframe[1]/html/body/input[1]', method: 'fill', arguments: ['across'] });
    expect(typed.success, typed.message).toBe(true);
    expect(await pageText(ctx.api, cross)).toContain('inner value: across');

    const shadow = await ctx.sessionOn('shadow.html');
    expect((await act(shadow, { selector: '/html/body/open-card[1]/#shadow-root/div[1]/button[1]', method: 'click' })).success).toBe(true);
    expect((await act(shadow, { selector: '/html/body/closed-card[1]/#shadow-root/div[1]/input[1]', method: 'fill', arguments: ['deep'] })).success).toBe(true);
    const log = await pageText(ctx.api, shadow, '#log');
    expect(log).toContain('clicked: open');
    expect(log).toContain('closed value: deep');
  });

  it('follows a popup the page opens: the next operation acts in the new tab', async () => {
    const id = await ctx.sessionOn('popup.html');
    expect((await act(id, { selector: '#open' })).success).toBe(true);
    expect((await act(id, { selector: '#go' })).success).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: go');
    const replay = await ctx.api.call('replaySession', { id });
    expectOk(replay);
    const urls = (replay.body.data.pages as Array<{ url: string }>).map((page) => page.url);
    expect(urls.some((url) => url.endsWith('/forms.html'))).toBe(true);
  });

  it('goes back with a goBack Action (the step a model answers "go back" with), and says when it cannot', async () => {
    const id = await ctx.sessionOn('forms.html');
    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('select.html') } }));
    expect((await act(id, { selector: '/html', method: 'goBack' })).success).toBe(true);
    expect((await act(id, { selector: '#go' })).success).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: go');

    const fresh = await ctx.startSession();
    const nowhere = await act(fresh, { selector: '/html', method: 'goBack' });
    expect(nowhere).toMatchObject({ success: false, message: 'There is no previous page to go back to' });
  });

  it('reports a missing or disabled target as success:false with the reason', async () => {
    const id = await ctx.sessionOn('forms.html');
    const missing = await act(id, { selector: '#does-not-exist', method: 'click' });
    expect(missing.success).toBe(false);
    expect(missing.message).toMatch(/does-not-exist/);
    const disabled = await act(id, { selector: '#disabled', method: 'click' });
    expect(disabled.success).toBe(false);
    expect(disabled.message).toMatch(/disabled|not enabled|timed out|timeout/i);
    expect(await pageText(ctx.api, id, '#log')).not.toContain('clicked: disabled');
  });

  it('answers an unknown method as a failed act that names it', async () => {
    const id = await ctx.sessionOn('forms.html');
    const result = await act(id, { selector: '#go', method: 'explode' });
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/explode/);
    expect(await pageText(ctx.api, id, '#log')).not.toContain('clicked: go');
  });
});
