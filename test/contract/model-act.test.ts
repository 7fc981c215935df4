// act with natural-language instructions on the built-in offline model, on every fixture page: the
// instruction is resolved from a snapshot, run by the deterministic executor and reported as a
// replayable Action; an instruction that matches nothing is an honest success:false.
import { describe, expect, it } from 'vitest';
import { expectOk, finishedOf, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

// The act cache is on by default; these tests are about resolution, so they skip it.
const ctx = useContract();
const headers = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };

async function act(id: string, input: string, options?: Record<string, unknown>) {
  const reply = await ctx.api.call('act', { id, body: { input, options }, headers });
  expectOk(reply);
  return reply.body.data.result as { success: boolean; message: string; actionDescription: string; actions: Array<Record<string, any>> };
}

async function succeeds(id: string, input: string, options?: Record<string, unknown>) {
  const result = await act(id, input, options);
  expect(result.success, `${input}: ${result.message}`).toBe(true);
  return result;
}

describe('act with an instruction (built-in offline model)', () => {
  it('fills, clicks and presses on the forms page, reporting replayable xpath Actions', async () => {
    const id = await ctx.sessionOn('forms.html');
    const filled = await succeeds(id, 'fill "Ada" into Name');
    expect(filled.actions).toHaveLength(1);
    expect(filled.actions[0]).toMatchObject({ selector: expect.stringMatching(/^xpath=\/html/), method: 'fill', arguments: ['Ada'], description: expect.any(String) });
    expect(filled.actions[0]!.backendNodeId).toEqual(expect.any(Number));
    await succeeds(id, 'type "Hello" into Bio');
    await succeeds(id, 'click Submit');
    expect(await pageText(ctx.api, id, '#result')).toMatch(/^submitted: Ada \/.*Hello$/);
    await succeeds(id, 'press Enter in press keys here');
    expect(await pageText(ctx.api, id, '#log')).toContain('key: Enter');
  });

  it('selects an option, checks and unchecks', async () => {
    const id = await ctx.sessionOn('select.html');
    const selected = await succeeds(id, 'select "Green" from Color');
    expect(selected.actions[0]).toMatchObject({ method: 'selectOptionFromDropdown', arguments: ['Green'] });
    expect(await pageText(ctx.api, id, '#log')).toContain('selected: g');
    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('checkboxes.html') } }));
    await succeeds(id, 'check I accept the terms');
    await succeeds(id, 'uncheck Newsletter');
    const log = await pageText(ctx.api, id, '#log');
    expect(log).toContain('terms: true');
    expect(log).toContain('news: false');
  });

  it('clicks inside a same-origin and a cross-origin iframe', async () => {
    for (const fixture of ['iframe.html', 'cross-iframe.html']) {
      const id = await ctx.sessionOn(fixture);
      const clicked = await succeeds(id, 'click the Inner button');
      expect(clicked.actions[0]!.selector).toMatch(/iframe\[1\]\/html/);
      expect(await pageText(ctx.api, id)).toContain('clicked: inner');
    }
  });

  it('clicks buttons inside closed and open shadow roots', async () => {
    const id = await ctx.sessionOn('shadow.html');
    const closed = await succeeds(id, 'click the closed button');
    expect(closed.actions[0]!.selector).toContain('#shadow-root');
    await succeeds(id, 'click the open button');
    const log = await pageText(ctx.api, id, '#log');
    expect(log).toContain('clicked: closed');
    expect(log).toContain('clicked: open');
  });

  it('scrolls the page: one screen down, then to the bottom (page-level actions)', async () => {
    const id = await ctx.sessionOn('long-list.html');
    const down = await succeeds(id, 'scroll down');
    expect(down.actions[0]).toMatchObject({ selector: 'xpath=/html', method: 'nextChunk' });
    const bottom = await succeeds(id, 'scroll to the bottom');
    expect(bottom.actions[0]).toMatchObject({ selector: 'xpath=/html', method: 'scrollTo', arguments: ['100%'] });
  });

  it('goes back to the previous page', async () => {
    const id = await ctx.sessionOn('forms.html');
    await succeeds(id, 'click the "Go to select" link');
    const back = await succeeds(id, 'go back');
    expect(back.actions[0]!.method).toBe('goBack');
    expect(await pageText(ctx.api, id)).toContain('Sign up');
  });

  it('answers an instruction it cannot resolve with success:false and a reason, touching nothing', async () => {
    const id = await ctx.sessionOn('forms.html');
    const result = await act(id, 'click the Checkout button');
    expect(result.success).toBe(false);
    expect(result.message.length).toBeGreaterThan(10);
    expect(result.actions).toEqual([]);
    expect(await pageText(ctx.api, id, '#log')).toBe('');
    const nonsense = await act(id, 'make me a sandwich');
    expect(nonsense.success).toBe(false);
    expect(nonsense.message).toMatch(/built-in offline model/);
  });

  it('streams a model-driven act with a finished event carrying the result', async () => {
    const id = await ctx.sessionOn('forms.html');
    const reply = await ctx.api.call('act', { id, body: { input: 'click Go' }, headers: { 'x-stream-response': 'true', 'browserbase-cache-bypass': 'true' } });
    expect(reply.status).toBe(200);
    expect(finishedOf(reply).result).toMatchObject({ success: true, actions: [expect.objectContaining({ method: 'click' })] });
  });

  it('records the act in replay with its timing', async () => {
    const id = await ctx.sessionOn('forms.html');
    await succeeds(id, 'click Go');
    const replay = await ctx.api.call('replaySession', { id });
    expectOk(replay);
    const acts = replay.body.data.pages.flatMap((p: any) => p.actions).filter((a: any) => a.method === 'act');
    expect(acts.at(-1)).toMatchObject({ parameters: { input: 'click Go' }, tokenUsage: { timeMs: expect.any(Number) } });
  });
});

describe('self-heal of an Action whose selector fails', () => {
  const broken = { selector: '#go-renamed', method: 'click', description: 'the Go button' };

  it('re-resolves the target from the description and reports the healed selector (selfHeal on by default)', async () => {
    const id = await ctx.sessionOn('forms.html');
    const reply = await ctx.api.call('act', { id, body: { input: broken }, headers });
    expectOk(reply);
    const result = reply.body.data.result;
    expect(result.success, result.message).toBe(true);
    expect(result.actions[0]).toMatchObject({ selector: expect.stringMatching(/^xpath=.*button/), method: 'click', description: 'the Go button' });
    expect(result.message).toMatch(/self-healed/);
    expect(await pageText(ctx.api, id, '#log')).toContain('clicked: go');
  });

  it('keeps the method and %name% arguments of the Action when healing', async () => {
    const id = await ctx.sessionOn('forms.html');
    const input = { selector: '#name-old', method: 'fill', arguments: ['%who%'], description: 'Name' };
    const reply = await ctx.api.call('act', { id, body: { input, options: { variables: { who: 'Grace' } } }, headers });
    expectOk(reply);
    expect(reply.body.data.result.success, reply.body.data.result.message).toBe(true);
    expect(reply.body.data.result.actions[0]).toMatchObject({ method: 'fill', arguments: ['%who%'] });
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#submit', method: 'click' } }, headers }));
    // The page echoes the name, which the session masks because it was sent as a variable.
    expect(await pageText(ctx.api, id, '#result')).toMatch(/^submitted: •••• \//);
  });

  it('fails honestly with selfHeal: false', async () => {
    const id = await ctx.sessionOn('forms.html', { selfHeal: false });
    const reply = await ctx.api.call('act', { id, body: { input: broken }, headers });
    expectOk(reply);
    expect(reply.body.data.result.success).toBe(false);
    expect(reply.body.data.result.message).toMatch(/go-renamed/);
    expect(await pageText(ctx.api, id, '#log')).toBe('');
  });
});
