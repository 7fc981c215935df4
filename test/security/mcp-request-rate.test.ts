// Outside tester (7): hosted /mcp was not held to the project's request rate: 100 concurrent
// tools/list on one MCP session were all answered while /v1 answered 429. Each /mcp HTTP request now
// takes a token of the project's rate (the same buckets as /v1), and past it is answered HTTP 429 with
// retry-after and a JSON-RPC error, in both protocol revisions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERN_META } from '../support/mcp-raw';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ DECKHAND_API_KEYS: 'legacy-key:proj-rate-legacy:rate=2,modern-key:proj-rate-modern:rate=2,shared-key:proj-rate-shared:rate=1' });
});
afterAll(async () => {
  await server?.close();
});

function post(key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

/** Sends 30 tools/list at once (ids 100…129); the answers, in order. */
async function flood(send: (id: number) => Promise<Response>): Promise<Response[]> {
  return Promise.all(Array.from({ length: 30 }, (_, i) => send(100 + i)));
}

async function expectRefusals(answers: Response[]): Promise<void> {
  const refused = answers.filter((r) => r.status === 429);
  expect(refused.length, 'no 429 among 30 concurrent requests at rate=2').toBeGreaterThan(0);
  for (const answer of answers) if (answer.status !== 429) await answer.body?.cancel();
  for (const answer of refused) {
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const index = answers.indexOf(answer);
    expect(await answer.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 100 + index,
      error: { code: -32000, message: expect.stringMatching(/more than 2 requests a second/), data: { code: 'rate_limited' } },
    });
  }
}

describe('hosted /mcp and the project request rate', () => {
  it('refuses 2025-11-25 session requests past the rate with 429 and a JSON-RPC error', async () => {
    const init = await post('legacy-key', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(sessionId).toBeTruthy();
    await init.body?.cancel();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await expectRefusals(await flood((id) => post('legacy-key', { jsonrpc: '2.0', id, method: 'tools/list' }, headers)));
  });

  it('refuses 2026-07-28 requests past the rate with 429 and a JSON-RPC error', async () => {
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    await expectRefusals(await flood((id) => post('modern-key', { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: MODERN_META } }, headers)));
  });

  it('shares the rate with /v1: MCP requests use up the tokens the API would get', async () => {
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    const answers = await flood((id) => post('shared-key', { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: MODERN_META } }, headers));
    for (const answer of answers) await answer.body?.cancel();
    const api = await fetch(`${server.url}/v1/sessions`, { headers: { authorization: 'Bearer shared-key' } });
    expect(api.status).toBe(429);
    expect(await api.json()).toMatchObject({ code: 'rate_limited' });
  });
});
