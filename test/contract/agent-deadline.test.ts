// The agent run's one deadline (DECKHAND_AGENT_TIMEOUT_MS here, short) and the client going away:
// both cancel the model call in flight; a run that runs out of time still answers with what it did
// (stop reason timeout), and the session is free at once either way.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
});
