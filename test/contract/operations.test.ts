// navigate, extract without a model, replay, frameId, one-at-a-time operations, and a crashed browser.
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { START_BODY, expectError, expectOk, firstChildFrameId, useContract } from '../support/contract';
import { closedPortUrl } from '../support/closed-port';
import { pageText } from '../support/page-log';

const ctx = useContract();
const json = { 'x-stream-response': 'false' };

describe('operations without a model', () => {
  it('navigates and answers a CDP-shaped response without the body', async () => {
    const id = await ctx.startSession();
    const reply = await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html'), options: { waitUntil: 'domcontentloaded' } }, headers: json });
    expectOk(reply);
    const { result, actionId } = reply.body.data;
    expect(actionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof result.requestId).toBe('string');
    expect(result.response).toMatchObject({ url: ctx.fixtures.url('forms.html'), status: 200, mimeType: 'text/html' });
    expect(result.response.headers['content-type']).toContain('text/html');
    expect(JSON.stringify(result).length).toBeLessThan(4000);
  });

  it('reports a navigation that cannot reach its host as an error', async () => {
    const id = await ctx.startSession();
    const reply = await ctx.api.call('navigate', { id, body: { url: await closedPortUrl() }, headers: json });
    expectError(reply, 502, 'navigation_failed');
    expect(reply.body.message).toMatch(/ERR_CONNECTION_REFUSED/);
  });

  it('extracts page text with no instruction, scoped by CSS or XPath, including frames and shadow roots', async () => {
    const id = await ctx.sessionOn('forms.html');
    const all = await pageText(ctx.api, id);
    expect(all).toContain('Sign up');
    expect(all).toContain('Hover me');
    expect(await pageText(ctx.api, id, 'h1')).toBe('Sign up');
    expect(await pageText(ctx.api, id, '/html/body/h1')).toBe('Sign up');
    await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('cross-iframe.html') } });
    expect(await pageText(ctx.api, id)).toContain('Inside the frame');
    await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('shadow.html') } });
    const shadow = await pageText(ctx.api, id);
    expect(shadow).toContain('open shadow text');
    expect(shadow).toContain('closed shadow text');
  });

  it('answers a scope selector that matches nothing with 422, naming the selector', async () => {
    const id = await ctx.sessionOn('forms.html');
    for (const [operation, body] of [
      ['extract', { options: { selector: 'h2.missing' } }],
      ['extract', { instruction: 'the headings', options: { selector: 'h2.missing' } }],
      ['observe', { options: { selector: 'h2.missing' } }],
    ] as const) {
      const error = expectError(await ctx.api.call(operation, { id, body, headers: json }), 422, 'unprocessable');
      expect(error.message).toBe('options.selector: No element matches selector "h2.missing"');
    }
  });

  it('honours frameId (a CDP frame id) and refuses an unknown one', async () => {
    const id = await ctx.startSession();
    await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('iframe.html') } });
    const frameId = await firstChildFrameId(ctx.api, id);
    const reply = await ctx.api.call('act', { id, body: { input: { selector: '#inner-btn', method: 'click' }, frameId }, headers: json });
    expect(reply.body.data.result.success).toBe(true);
    const framed = await ctx.api.call('extract', { id, body: { options: { selector: '#log' }, frameId }, headers: json });
    expect(framed.body.data.result.pageText).toContain('clicked: inner');
    expectError(await ctx.api.call('act', { id, body: { input: { selector: 'body' }, frameId: 'NOPE' }, headers: json }), 400, 'frame_not_found');
  });

  it('acts on an instruction in the frame frameId names, answering a selector from the main frame', async () => {
    const id = await ctx.startSession();
    await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('iframe.html') } });
    const frameId = await firstChildFrameId(ctx.api, id);
    const reply = await ctx.api.call('act', { id, body: { input: 'click the Inner button', frameId }, headers: json });
    expectOk(reply);
    const { success, actions } = reply.body.data.result;
    expect(success).toBe(true);
    // Replayable without the frameId: the path runs from the main frame through the iframe.
    expect(actions[0].selector).toMatch(/^xpath=\/html\/body\[1\]\/div\[1\]\/iframe\[1\]\/html\/body\[1\]\/button\[1\]$/);
    const framed = await ctx.api.call('extract', { id, body: { options: { selector: '#log' }, frameId }, headers: json });
    expect(framed.body.data.result.pageText).toContain('clicked: inner');
    const replayed = await ctx.api.call('act', { id, body: { input: actions[0] }, headers: json });
    expect(replayed.body.data.result.success).toBe(true);
  });

  it('runs concurrent operations on one session one at a time, and records them for replay', async () => {
    const id = await ctx.sessionOn('slow.html');
    const [first, second] = await Promise.all([
      ctx.api.call('act', { id, body: { input: { selector: '#fetch', method: 'click' } }, headers: json }),
      ctx.api.call('act', { id, body: { input: { selector: '#later', method: 'click' } }, headers: json }),
    ]);
    expect(first.body.data.result.success).toBe(true);
    expect(second.body.data.result.success).toBe(true);
    const replay = await ctx.api.call('replaySession', { id });
    expectOk(replay);
    const pages = replay.body.data.pages as Array<{ url: string; actions: Array<{ method: string; timestamp: number; endTime: number }> }>;
    const acts = pages.flatMap((p) => p.actions).filter((a) => a.method === 'act');
    expect(acts).toHaveLength(2);
    expect(acts[1]!.timestamp).toBeGreaterThanOrEqual(acts[0]!.endTime);
    expect(pages.at(-1)!.url).toBe(ctx.fixtures.url('slow.html'));
    expect(await pageText(ctx.api, id, '#log')).toContain('loaded:');
  });

  it('turns a session whose browser crashed into 410 without hurting the server or other sessions', async () => {
    // A browser of its own (a locale is a browser switch): a shared browser's cdpUrl refuses Browser.crash.
    const victim = await ctx.api.call('startSession', { body: { ...START_BODY, browser: { type: 'local', launchOptions: { headless: true, locale: 'en-US' } } } });
    const bystander = await ctx.sessionOn('forms.html');
    const browser = await chromium.connectOverCDP(victim.body.data.cdpUrl);
    const cdp = await browser.newBrowserCDPSession();
    await cdp.send('Browser.crash').catch(() => {});
    const id = victim.body.data.sessionId;
    await expect
      .poll(async () => (await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') }, headers: json })).status, { timeout: 10_000 })
      .toBe(410);
    const gone = expectError(await ctx.api.call('replaySession', { id }), 410, 'session_gone');
    expect(gone.message).toMatch(/browser was lost.*crashed/i);
    // The loss is logged (a shared browser's takes every session in it: one line each).
    expect(ctx.server.logs.some((line) => line.includes('its browser was lost') && line.includes(id))).toBe(true);
    expect((await ctx.api.call('getHealth')).status).toBe(200);
    const ok = await ctx.api.call('act', { id: bystander, body: { input: { selector: '#go' } }, headers: json });
    expect(ok.body.data.result.success).toBe(true);
  });
});
