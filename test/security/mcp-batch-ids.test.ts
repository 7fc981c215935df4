// A JSON-RPC batch whose requests repeat an id. MCP has no batches since 2025-06-18, and a
// 2026-07-28 request is stateless, so a batch holding one is refused whole (400, -32600) before any
// tool runs, whatever its ids; a 2025-11-25 session still takes all-legacy batches (older clients
// send them), and one repeating an id is refused the same way (the two requests would share one
// answer slot). Neither starts a browser session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/contract';
import { driverFor, type Driver } from '../support/drivers';
import { MODERN_META } from '../support/mcp-raw';
import { startTestServer, type TestServer } from '../support/test-server';

const KEY = 'batch-ids-key';
let server: TestServer;
let api: Driver;

beforeAll(async () => {
  server = await startTestServer({ DECKHAND_API_KEYS: `${KEY}:proj-batch-ids` });
  api = driverFor(server.url, { 'x-bb-api-key': KEY });
});
afterAll(async () => {
  await server?.close();
});

function post(body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

/** The project's sessions, live or ended: a tool that ran would have started one. */
async function sessions(): Promise<unknown[]> {
  const list = await api.call('listSessions', {});
  expectOk(list);
  return list.body.data.sessions as unknown[];
}

describe('a JSON-RPC batch repeating an id', () => {
  it('of 2026-07-28 requests is refused whole with -32600, and no tool runs', async () => {
    const start = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'start', arguments: {}, _meta: MODERN_META } };
    const reply = await post([start, start], { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' });
    expect(reply.status).toBe(400);
    const body = await reply.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batch/i) } });
    expect(await sessions()).toEqual([]);
  });

  it('on a 2025-11-25 session is refused with -32600 naming the id, and no tool runs', async () => {
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }, {});
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(sessionId).toBeTruthy();
    await init.body?.cancel();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);

    const start = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'start', arguments: {} } };
    const reply = await post([start, start], headers);
    expect(reply.status).toBe(400);
    expect(await reply.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringMatching(/7.*in flight/) } });
    expect(await sessions()).toEqual([]);

    // The id was never held: the same request alone is answered.
    const alone = await post({ ...start, params: { name: 'end', arguments: {} } }, headers);
    expect(alone.status).toBe(200);
    await alone.body?.cancel();
    await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${KEY}`, ...headers } });
  });
});
