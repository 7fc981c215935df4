// observe and extract with the built-in offline model: observed Actions replay through act as they
// are; extraction follows the caller's schema (URL fields carry the page's real hrefs).
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();
const json = { 'x-stream-response': 'false' };

async function observe(id: string, body: Record<string, unknown>) {
  const reply = await ctx.api.call('observe', { id, body, headers: json });
  expectOk(reply);
  expect(reply.body.data.actionId).toMatch(/^[0-9a-f-]{36}$/);
  return reply.body.data.result as Array<{ selector: string; description: string; method: string; arguments: string[]; backendNodeId?: number }>;
}

async function extract(id: string, body: Record<string, unknown>) {
  const reply = await ctx.api.call('extract', { id, body, headers: json });
  expectOk(reply);
  return reply.body.data.result;
}

describe('observe (built-in offline model)', () => {
  it('lists the elements matching an instruction; each selector replays through act', async () => {
    const id = await ctx.sessionOn('forms.html');
    const found = await observe(id, { instruction: 'click the Go button' });
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatchObject({ selector: expect.stringMatching(/^xpath=\//), method: 'click', arguments: [], description: expect.stringMatching(/Go/) });
    expect(found[0]!.backendNodeId).toEqual(expect.any(Number));
    const replayed = await ctx.api.call('act', { id, body: { input: found[0] }, headers: json });
    expectOk(replayed);
    expect(replayed.body.data.result.success).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toContain('clicked: go');
  });

  it('with no instruction lists the notable actionable elements, in frames and shadow roots too', async () => {
    const id = await ctx.sessionOn('shadow.html');
    const all = await observe(id, {});
    const descriptions = all.map((a) => a.description).join('\n');
    expect(descriptions).toMatch(/open button/);
    expect(descriptions).toMatch(/closed button/);
    const closed = all.find((a) => /closed button/.test(a.description))!;
    expectOk(await ctx.api.call('act', { id, body: { input: closed }, headers: json }));
    expect(await pageText(ctx.api, id, '#log')).toContain('clicked: closed');
  });

  it('scopes to options.selector', async () => {
    const id = await ctx.sessionOn('forms.html');
    const inForm = await observe(id, { options: { selector: '#signup' } });
    expect(inForm.length).toBeGreaterThan(0);
    expect(inForm.every((a) => a.selector.includes('/form'))).toBe(true);
    expectError(await ctx.api.call('observe', { id, body: { options: { selector: '#nope' } }, headers: json }), 422, 'unprocessable');
  });

  it('checkboxes are suggested as check or uncheck by their state', async () => {
    const id = await ctx.sessionOn('checkboxes.html');
    const all = await observe(id, {});
    expect(all.find((a) => /terms/i.test(a.description))?.method).toBe('check');
    expect(all.find((a) => /Newsletter/i.test(a.description))?.method).toBe('uncheck');
  });
});

describe('extract with a schema or an instruction (built-in offline model)', () => {
  it('returns an object shaped by the schema, with a link URL field carrying the real href', async () => {
    const id = await ctx.sessionOn('forms.html');
    const result = await extract(id, {
      schema: { type: 'object', properties: { heading: { type: 'string' }, selectUrl: { type: 'string', format: 'uri' } }, required: ['heading', 'selectUrl'] },
    });
    expect(result).toEqual({ heading: 'Sign up', selectUrl: ctx.fixtures.url('select.html') });
  });

  it('wraps a non-object schema and unwraps the answer', async () => {
    const id = await ctx.sessionOn('forms.html');
    expect(await extract(id, { instruction: 'heading', schema: { type: 'string' } })).toBe('Sign up');
  });

  it('answers an instruction alone with {extraction}', async () => {
    const id = await ctx.sessionOn('forms.html');
    const result = await extract(id, { instruction: 'the main heading' });
    expect(result).toEqual({ extraction: 'Sign up' });
  });

  it('scopes the snapshot with options.selector', async () => {
    const id = await ctx.sessionOn('iframe.html');
    const result = await extract(id, { instruction: 'all the text', options: { selector: '/html/body/div[1]/iframe[1]/html/body' } });
    expect(result.extraction).toContain('Inner button');
    expect(result.extraction).not.toContain('Before the frame');
  });

  it('keeps extract without instruction or schema as page text', async () => {
    const id = await ctx.sessionOn('forms.html');
    expect(await extract(id, { options: { selector: 'h1' } })).toEqual({ pageText: 'Sign up' });
  });

  it('treats an empty or blank instruction without a schema as no instruction: page text', async () => {
    const id = await ctx.sessionOn('forms.html');
    expect(await extract(id, { instruction: '', options: { selector: 'h1' } })).toEqual({ pageText: 'Sign up' });
    expect(await extract(id, { instruction: '  ', options: { selector: 'h1' } })).toEqual({ pageText: 'Sign up' });
  });
});
