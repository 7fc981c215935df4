// Issue 17: a client that goes away in the middle of an agent run (plain or streamed) cancels it, and
// the replay records it as cancelled; it was recorded as "Unexpected error", as if the server had failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server';
import { expectOk, useContract } from '../support/contract';

let model: ModelServer;
beforeAll(async () => {
  model = await startModelServer();
});
afterAll(() => model.close());
const ctx = useContract();

const llm = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-cancel-test', baseURL: `${model.url}/v1` });

async function runThenLeave(id: string, stream: boolean): Promise<void> {
  model.requests.length = 0;
  model.hang();
  const gone = new AbortController();
  const call = fetch(`${ctx.server.url}/v1/sessions/${id}/agentExecute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-stream-response': String(stream) },
    body: JSON.stringify({ agentConfig: { model: llm() }, executeOptions: { instruction: 'Sign up' } }),
    signal: gone.signal,
  }).then((response) => response.text()).catch(() => undefined);
  await expect.poll(() => model.requests.length).toBe(1);
  gone.abort();
  await call;
  await expect.poll(() => model.requests[0]!.abandoned).toBe(true);
}

async function agentRecords(id: string): Promise<Array<Record<string, any>>> {
  // The session takes the next operation once the cancelled one has wound down.
  expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } } }));
  const replay = await ctx.api.call('replaySession', { id });
  return (replay.body.data.pages as Array<{ actions: Array<Record<string, any>> }>).flatMap((p) => p.actions).filter((a) => a.method === 'agentExecute');
}

describe('a client abort of an agent run', () => {
  for (const stream of [false, true]) {
    it(`is recorded as cancelled, not as an unexpected error (${stream ? 'streamed' : 'plain'})`, async () => {
      const id = await ctx.sessionOn('forms.html');
      await runThenLeave(id, stream);
      const [record] = await agentRecords(id);
      expect(record?.result?.error).toMatch(/cancelled/i);
      expect(JSON.stringify(record?.result)).not.toMatch(/Unexpected/i);
    });
  }
});
