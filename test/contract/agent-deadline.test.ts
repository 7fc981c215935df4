// The agent run's one deadline (DECKHAND_AGENT_TIMEOUT_MS here, short) and the client going away:
// both cancel the model call in flight; a run that runs out of time still answers with what it did
// (stop reason timeout), and the session is free at once either way.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { startModelServer, type ModelServer } from '../support/model-server';
import { expectOk, useContract } from '../support/contract';

let model: ModelServer;
beforeAll(async () => {
  model = await startModelServer();
});
afterAll(() => model.close());
const ctx = useContract({ DECKHAND_AGENT_TIMEOUT_MS: '5000' });
beforeEach(() => {
  model.requests.length = 0;
});

const json = { 'x-stream-response': 'false' };
const llm = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-deadline-test', baseURL: `${model.url}/v1` });

describe('agentExecute deadline and cancellation', () => {
  it('a run that outlives its deadline answers 200 with stop reason timeout and the steps it took; the model call is cancelled', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.script([{ toolCalls: [{ name: 'think', args: { thought: 'first look' } }] }, { hang: true }]);
    const reply = await ctx.api.call('agentExecute', { id, body: { agentConfig: { model: llm() }, executeOptions: { instruction: 'Sign up' } }, headers: json });
    expectOk(reply);
    expect(reply.body.data.result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'timeout', steps: 2 } });
    expect(reply.body.data.result.actions).toHaveLength(1);
    await expect.poll(() => model.requests[1]?.abandoned).toBe(true);
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } }, headers: json }));
  });

  it('a client that goes away cancels the model call in flight, and the session takes the next operation', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.hang();
    const gone = new AbortController();
    const call = fetch(`${ctx.server.url}/v1/sessions/${id}/agentExecute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...json },
      body: JSON.stringify({ agentConfig: { model: llm() }, executeOptions: { instruction: 'Sign up' } }),
      signal: gone.signal,
    }).catch(() => undefined);
    await expect.poll(() => model.requests.length).toBe(1);
    gone.abort();
    await call;
    await expect.poll(() => model.requests[0]!.abandoned).toBe(true);
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } }, headers: json }));
    const replay = await ctx.api.call('replaySession', { id });
    const record = (replay.body.data.pages as Array<{ actions: Array<Record<string, any>> }>).flatMap((p) => p.actions).find((a) => a.method === 'agentExecute');
    expect(JSON.stringify(record?.result)).toMatch(/error/);
  });

  it('highlightCursor draws a cursor where the agent clicks while it runs, seen over CDP, and takes it away at the end', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.script([{ toolCalls: [{ name: 'act', args: { action: 'click Go' } }] }, { hang: true }]);
    const running = ctx.api.call('agentExecute', {
      id,
      body: { agentConfig: { model: llm(), executionModel: 'builtin/offline' }, executeOptions: { instruction: 'Click Go', highlightCursor: true } },
      headers: json,
    });
    const record = await ctx.api.call('getBrowserSession', { id });
    const browser = await chromium.connectOverCDP(record.body.connectUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      const go = await page.locator('#go').boundingBox();
      const cursor = () =>
        page.evaluate(() => {
          const dot = document.getElementById('__deckhand_cursor');
          return dot ? { x: parseFloat(dot.style.left), y: parseFloat(dot.style.top), hidden: dot.getAttribute('aria-hidden') } : null;
        });
      // While the model is asked its second turn, the cursor sits where the click landed.
      await expect.poll(async () => {
        const at = await cursor();
        return Boolean(at && go && at.x >= go.x && at.x <= go.x + go.width && at.y >= go.y && at.y <= go.y + go.height);
      }).toBe(true);
      expect((await cursor())!.hidden).toBe('true');
      const reply = await running;
      expectOk(reply);
      expect(reply.body.data.result.metadata.stopReason).toBe('timeout');
      expect(await cursor()).toBeNull();
    } finally {
      await browser.close().catch(() => {});
    }
  });
});
