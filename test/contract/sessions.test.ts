// Session lifecycle over the wire: start, the CDP URL, end semantics, limits, and the
// Browserbase-style session record the published client reads.
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { START_BODY, expectError, expectOk, useContract } from '../support/contract';
import { browserPids, isRunning } from '../support/processes';

const ctx = useContract({ DECKHAND_MAX_SESSIONS: '3' });

describe('sessions', () => {
  it('starts on a local Chromium and hands out a CDP URL whose first page is the session page', async () => {
    const reply = await ctx.api.call('startSession', {
      body: { ...START_BODY, browser: { type: 'local', launchOptions: { headless: true, viewport: { width: 800, height: 600 } } } },
    });
    expectOk(reply);
    const { sessionId, available, cdpUrl } = reply.body.data;
    expect(available).toBe(true);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(cdpUrl).toMatch(new RegExp(`^ws://${new URL(ctx.server.url).host}/v1/sessions/${sessionId}/cdp\\?token=`));
    expectOk(await ctx.api.call('navigate', { id: sessionId, body: { url: ctx.fixtures.url('forms.html') } }));

    const browser = await chromium.connectOverCDP(cdpUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      expect(page.url()).toBe(ctx.fixtures.url('forms.html'));
      expect(await page.evaluate(() => [innerWidth, innerHeight])).toEqual([800, 600]);
    } finally {
      await browser.close();
    }
    expectOk(await ctx.api.call('endSession', { id: sessionId }));
  });

  it('uses the default viewport of 1024x768 and the server browser when no browser is given', async () => {
    const reply = await ctx.api.call('startSession', { body: { modelName: 'builtin/offline' } });
    expectOk(reply);
    const browser = await chromium.connectOverCDP(reply.body.data.cdpUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      expect(await page.evaluate(() => [innerWidth, innerHeight])).toEqual([1024, 768]);
    } finally {
      await browser.close();
    }
    expectOk(await ctx.api.call('endSession', { id: reply.body.data.sessionId, body: {} }));
  });

  it('needs cdpUrl or launchOptions for a local browser, and says so', async () => {
    const error = expectError(await ctx.api.call('startSession', { body: { modelName: 'builtin/offline', browser: { type: 'local' } } }), 400, 'validation_error');
    expect(error.issues?.[0]?.path).toBe('body.browser');
    expect(error.message).toBe('Invalid request: body.browser: needs cdpUrl or launchOptions');
  });

  it('refuses at start a model name it cannot resolve, listing the accepted forms', async () => {
    for (const modelName of ['foo', 'builtin', 'builtin/fast', 'acme/model-1']) {
      const error = expectError(await ctx.api.call('startSession', { body: { ...START_BODY, modelName } }), 400, 'validation_error');
      expect(error.issues?.[0]?.path).toBe('body.modelName');
      expect(error.message).toContain(`modelName "${modelName}" cannot be used`);
      expect(error.message).toMatch(/Accepted: "<provider>\/<model>" with provider openai, anthropic, .*"builtin\/offline"/);
    }
    for (const modelName of ['builtin/offline', 'openai/gpt-4.1-mini', 'gpt-4.1-nano', 'ollama/llama3.2']) {
      const reply = await ctx.api.call('startSession', { body: { ...START_BODY, modelName } });
      expectOk(reply);
      expectOk(await ctx.api.call('endSession', { id: reply.body.data.sessionId }));
    }
  });

  it('starts without a modelName (or with the published client\'s "auto") on the built-in offline model', async () => {
    for (const extra of [{}, { modelName: 'auto' }]) {
      const { modelName: _, ...withoutModel } = START_BODY;
      const reply = await ctx.api.call('startSession', { body: { ...withoutModel, ...extra } });
      expectOk(reply);
      const id = reply.body.data.sessionId;
      expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') } }));
      // A natural-language act needs a model: the offline one answers, with no key anywhere.
      const acted = await ctx.api.call('act', { id, body: { input: 'click the Go button' } });
      expectOk(acted);
      expect(acted.body.data.result).toMatchObject({ success: true, actions: [{ method: 'click' }] });
      expectOk(await ctx.api.call('endSession', { id }));
    }
  });

  it('ends with no body, an empty JSON body or {}; refuses a non-empty body; a second end is 410', async () => {
    for (const body of [undefined, {}]) {
      const id = await ctx.startSession();
      expectOk(await ctx.api.call('endSession', { id, body }));
      expectError(await ctx.api.call('endSession', { id, body: {} }), 410, 'session_gone');
      expectError(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') } }), 410, 'session_gone');
    }
    const id = await ctx.startSession();
    const empty = await fetch(`${ctx.server.url}/v1/sessions/${id}/end`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
    expect(empty.status).toBe(200);
    const other = await ctx.startSession();
    expectError(await ctx.api.call('endSession', { id: other, body: { force: true } }), 400, 'validation_error');
    expectOk(await ctx.api.call('endSession', { id: other }));
  });

  it('leaves no Chromium process behind after end', async () => {
    const reply = await ctx.api.call('startSession', { body: START_BODY });
    const pids = await browserPids(reply.body.data.cdpUrl);
    expect(pids.length).toBeGreaterThan(1);
    expect(pids.every(isRunning)).toBe(true);
    expectOk(await ctx.api.call('endSession', { id: reply.body.data.sessionId }));
    await expect.poll(() => pids.filter(isRunning), { timeout: 5000 }).toEqual([]);
  });

  it('answers 404 for an unknown session', async () => {
    expectError(await ctx.api.call('replaySession', { id: 'no-such-session' }), 404, 'session_not_found');
  });

  it('refuses sessions past the limit with 429, and frees the slot on end', async () => {
    const open = (await ctx.api.call('getHealth')).body.sessions as number;
    const ids: string[] = [];
    for (let i = open; i < 3; i++) ids.push(await ctx.startSession());
    expectError(await ctx.api.call('startSession', { body: START_BODY }), 429, 'session_limit');
    expectOk(await ctx.api.call('endSession', { id: ids.pop()! }));
    ids.push(await ctx.startSession());
    for (const id of ids) expectOk(await ctx.api.call('endSession', { id }));
  });

  it('serves the Browserbase-style session record, debug URLs and release', async () => {
    const reply = await ctx.api.call('startSession', { body: START_BODY });
    const id = reply.body.data.sessionId;
    const record = await ctx.api.call('getBrowserSession', { id });
    expect(record.body).toMatchObject({ id, status: 'RUNNING', connectUrl: reply.body.data.cdpUrl, debugUrl: reply.body.data.debugUrl });
    const debug = await ctx.api.call('getBrowserSessionDebug', { id });
    expect(debug.body.wsUrl).toBe(reply.body.data.cdpUrl);
    // The front end is the debugUrl link (it redirects to one); the websocket is the relay.
    expect(debug.body).toMatchObject({ debuggerUrl: reply.body.data.debugUrl, debuggerFullscreenUrl: reply.body.data.debugUrl });
    const released = await ctx.api.call('updateBrowserSession', { id, body: { status: 'REQUEST_RELEASE' } });
    expect(released.body).toMatchObject({ id, status: 'COMPLETED' });
    expectError(await ctx.api.call('getBrowserSession', { id }), 410, 'session_gone');
  });
});
