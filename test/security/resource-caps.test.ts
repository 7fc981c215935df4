// Issue 17: per-project caps on what a client can hold open. 200 streamed runs queued on one session
// held 200 sockets (file descriptors 42 → 240); live/frame requests had no limit; /mcp accepted 900
// `initialize` requests in 3 s and held each MCP session for 10 minutes. Past each cap: 429 in the
// error shape with retry-after, while other projects carry on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server';
import { START_BODY, expectOk, useContract } from '../support/contract';

let model: ModelServer;
beforeAll(async () => {
  model = await startModelServer();
});
afterAll(() => model.close());

const ctx = useContract(
  {
    DECKHAND_API_KEYS: 'key-a:project-a:rate=0,key-b:project-b:rate=0',
    DECKHAND_SESSION_QUEUE_MAX: '3',
    DECKHAND_LIVE_FRAMES_PER_SESSION: '1',
    DECKHAND_MCP_MAX_SESSIONS: '5',
    DECKHAND_MCP_INIT_RATE: '2',
    DECKHAND_NAV_ALLOW: '127.0.0.1',
  },
  { 'x-bb-api-key': 'key-a' },
);

/** A JSON answer of a refused request, in the one error shape with retry-after. */
async function expect429(response: Response): Promise<string> {
  expect(response.status).toBe(429);
  const body = (await response.json()) as { success: boolean; code: string; message: string };
  expect(body).toMatchObject({ success: false, code: 'rate_limited' });
  expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  return body.message;
}

describe('per-session operation queue', () => {
  it('holds at most DECKHAND_SESSION_QUEUE_MAX operations; past it a streamed request is 429 before its stream opens', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.requests.length = 0;
    model.hang();
    const gone = new AbortController();
    const post = (path: string, body: unknown) =>
      fetch(`${ctx.server.url}/v1/sessions/${id}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-stream-response': 'true', 'x-bb-api-key': 'key-a' },
        body: JSON.stringify(body),
        signal: gone.signal,
      });
    const llm = { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-queue', baseURL: `${model.url}/v1` };
    // One run holds the session's turn; two more wait for theirs.
    const running = await post('agentExecute', { agentConfig: { model: llm }, executeOptions: { instruction: 'Sign up' } });
    expect(running.status).toBe(200);
    await expect.poll(() => model.requests.length).toBe(1);
    const waiting = [await post('act', { input: 'click Go' }), await post('act', { input: 'click Go' })];
    for (const reply of waiting) expect(reply.status).toBe(200);
    const refused: Response[] = [];
    for (let i = 0; i < 20; i++) refused.push(await post('act', { input: 'click Go' }));
    for (const reply of refused) expect(await expect429(reply)).toMatch(/3 operations/);
    gone.abort();
    // Once the run is gone the session takes operations again.
    await expect.poll(async () => (await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } } })).status, { timeout: 15_000 }).toBe(200);
  });
});

describe('live frames', () => {
  it('serves one picture of a session at a time; a second in flight is 429, and frames come again after', async () => {
    const start = await ctx.api.call('startSession', { body: START_BODY });
    expectOk(start);
    const { sessionId, sessionUrl } = start.body.data;
    expectOk(await ctx.api.call('navigate', { id: sessionId, body: { url: ctx.fixtures.url('forms.html') } }));
    const frameUrl = sessionUrl.replace('/live?', '/live/frame?');
    const replies = await Promise.all(Array.from({ length: 12 }, () => fetch(frameUrl)));
    const statuses = replies.map((r) => r.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
    for (const reply of replies.filter((r) => r.status === 429)) expect(await expect429(reply)).toMatch(/picture/);
    await Promise.all(replies.map((r) => r.arrayBuffer().catch(() => undefined)));
    expect((await fetch(frameUrl)).status).toBe(200);
  });
});

describe('/mcp', () => {
  const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  const initialize = (key: string) =>
    fetch(`${ctx.server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` }, body: INITIALIZE });

  it('a burst of initialize requests is not all accepted: the rate and the open-session cap answer 429, per project', async () => {
    const replies = await Promise.all(Array.from({ length: 60 }, () => initialize('key-a')));
    let accepted = replies.filter((r) => r.status === 200).length;
    // DECKHAND_MCP_INIT_RATE=2: bursts of about 4 pass (and never more than the cap of 5).
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThanOrEqual(5);
    for (const reply of replies.filter((r) => r.status !== 200)) expect(await expect429(reply)).toMatch(/initialize|open MCP sessions/);
    // Another project is not held back by this one.
    expect((await initialize('key-b')).status).toBe(200);

    // At the rate, the project's open MCP sessions stop at DECKHAND_MCP_MAX_SESSIONS.
    let capped = false;
    for (let i = 0; i < 10 && !capped; i++) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      const reply = await initialize('key-a');
      if (reply.status === 200) accepted++;
      else capped = /5 open MCP sessions/.test(await expect429(reply));
    }
    expect(capped).toBe(true);
    expect(accepted).toBe(5);
  });
});
