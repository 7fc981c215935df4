// Operations that used to answer 500 with Playwright's own words: a navigate right after a failed one,
// a read while the page navigates itself, and a JSON Schema nested thousands deep (which also broke
// replay). Each now answers in the contract, and a 500 never carries raw detail.
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, useContract } from '../support/contract';
import { closedPortUrl } from '../support/closed-port';

const ctx = useContract();
const json = { 'x-stream-response': 'false' };

/** A JSON Schema nested `levels` objects deep, as JSON text (JSON.stringify itself overflows on it). */
function deepSchemaText(levels: number): string {
  return '{"type":"object","properties":{"a":'.repeat(levels) + '{"type":"string"}' + '}}'.repeat(levels);
}

/** Raw POST: the client bindings cannot serialise a body this deep. */
async function postText(path: string, body: string) {
  const response = await fetch(`${ctx.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...json }, body });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('resilience', () => {
  it('navigates right after a failed navigation (the error page commits late)', async () => {
    const id = await ctx.startSession();
    for (let i = 0; i < 9; i++) {
      expectError(await ctx.api.call('navigate', { id, body: { url: await closedPortUrl() }, headers: json }), 502, 'navigation_failed');
      const reply = await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url(`forms.html?try=${i}`) }, headers: json });
      expectOk(reply);
      expect(reply.body.data.result.response.status).toBe(200);
    }
  });

  it('reads a page that navigates itself away while it is being read', async () => {
    const id = await ctx.startSession();
    for (const ms of [0, 5, 10, 20, 40]) {
      for (let i = 0; i < 2; i++) {
        const url = ctx.fixtures.url(`self-redirect.html?ms=${ms}&try=${i}`);
        expectOk(await ctx.api.call('navigate', { id, body: { url, options: { waitUntil: 'domcontentloaded' } }, headers: json }));
        const text = await ctx.api.call('extract', { id, body: {}, headers: json });
        expectOk(text);
        expect(text.body.data.result.pageText).toMatch(/Redirecting|Sign up/);
      }
      const observed = await ctx.api.call('observe', { id, body: {}, headers: json });
      expectOk(observed);
    }
  });

  it('reads a document without a root element (as the new document of a navigation is, for a moment)', async () => {
    const id = await ctx.startSession();
    const rootless = '<p>gone</p><script>document.documentElement.remove()</script>';
    expectOk(await ctx.api.call('navigate', { id, body: { url: `data:text/html,${encodeURIComponent(rootless)}` }, headers: json }));
    const observed = await ctx.api.call('observe', { id, body: {}, headers: json });
    expectOk(observed);
    expect(observed.body.data.result).toEqual([]);
    const text = await ctx.api.call('extract', { id, body: {}, headers: json });
    expectOk(text);
    expect(text.body.data.result.pageText).toBe('');
    expectOk(await ctx.api.call('screenshot', { id, body: { fullPage: true }, headers: json }));
  });

  it('refuses a JSON Schema nested past the bound with a 400 naming it, before any page work', async () => {
    const id = await ctx.sessionOn('forms.html');
    for (const levels of [3_000, 5_000]) {
      const reply = await postText(`/v1/sessions/${id}/extract`, `{"instruction":"the name","schema":${deepSchemaText(levels)}}`);
      const error = expectError(reply, 400, 'validation_error');
      expect(error.message).toMatch(/64 levels/);
      expect(error.issues![0]!.path).toMatch(/^body\.schema\.properties\.a/);
    }
    // Just inside the bound is an ordinary extract.
    const inside = await postText(`/v1/sessions/${id}/extract`, `{"instruction":"the name","schema":${deepSchemaText(20)}}`);
    expect(inside.status, JSON.stringify(inside.body)).not.toBeGreaterThanOrEqual(500);
    const replay = await ctx.api.call('replaySession', { id });
    expectOk(replay);
  });

  it('explains an action Playwright gave up on in its own words, not Playwright\'s', async () => {
    const id = await ctx.startSession();
    const covered = '<button id="b" onclick="document.title=1">Go</button><div style="position:fixed;inset:0;background:#fff"></div>';
    expectOk(await ctx.api.call('navigate', { id, body: { url: `data:text/html,${encodeURIComponent(covered)}` }, headers: json }));
    const reply = await ctx.api.call('act', { id, body: { input: { selector: '#b', method: 'click' }, options: { timeout: 5_000 } }, headers: json });
    expectOk(reply);
    expect(reply.body.data.result).toMatchObject({ success: false, message: expect.stringMatching(/a div stands over it and would take the click/) });
    expect(reply.body.data.result.message).not.toMatch(/Timeout \d+ms exceeded/);
  });

  it('refuses a JSON Schema that is not one with a 400 naming where, instead of a 500', async () => {
    const id = await ctx.sessionOn('forms.html');
    const cases: Array<[unknown, string]> = [
      [{ type: 'object', required: 5 }, 'schema.required'],
      [{ type: 'object', properties: { name: null } }, 'schema.properties.name'],
      [{ type: 'object', properties: { name: { type: 'string', pattern: '(' } } }, 'schema'],
    ];
    for (const [schema, path] of cases) {
      const error = expectError(await ctx.api.call('extract', { id, body: { instruction: 'the name', schema }, headers: json }), 400, 'validation_error');
      expect(error.issues![0]!.path).toBe(path);
    }
  });

  it('keeps the browser library\'s words for a failed attach out of the answer, and in the log under the request id', async () => {
    const cdpUrl = (await closedPortUrl()).replace(/^http/, 'ws');
    const reply = await ctx.api.call('startSession', { body: { modelName: 'builtin/offline', browser: { type: 'local', cdpUrl } } });
    const error = expectError(reply, 503, 'browser_unavailable');
    expect(error.message).not.toMatch(/connectOverCDP|ECONNREFUSED/);
    const requestId = reply.headers.get('x-request-id')!;
    const line = ctx.server.logs.map((l) => JSON.parse(l)).find((l) => l.requestId === requestId && l.detail);
    expect(line?.detail).toMatch(/ECONNREFUSED/);
  });

  it('refuses a JSON body with more values than the bound', async () => {
    const id = await ctx.sessionOn('forms.html');
    const properties = Object.fromEntries(Array.from({ length: 6_000 }, (_, i) => [`f${i}`, { type: 'string' }]));
    const reply = await postText(`/v1/sessions/${id}/extract`, JSON.stringify({ instruction: 'x', schema: { type: 'object', properties } }));
    const error = expectError(reply, 400, 'validation_error');
    expect(error.message).toMatch(/10000 values/);
  });
});
