// Red-team finding: on one 2025-11-25 MCP session, concurrent requests reusing one JSON-RPC id left all
// but one waiting forever (the SDK's transport maps an id to one waiting stream). Every request must be
// answered: the one holding the id in flight gets its result, a reuse gets a 400 JSON-RPC error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

const KEY = 'duplicate-ids-key';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ DECKHAND_API_KEYS: `${KEY}:proj-duplicates` });
});

afterAll(async () => {
  await server?.close();
});

function post(body: unknown, sessionId?: string): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC messages of a response, whether SSE or plain JSON. */
async function messagesOf(response: Response): Promise<Array<{ id?: unknown; result?: unknown; error?: { code: number; message: string } }>> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6).map((line) => JSON.parse(line.slice(6)));
  }
  return [JSON.parse(text)];
}

describe('duplicate JSON-RPC ids on one MCP session', () => {
  it('answers every request reusing an id in flight, and frees the id once answered', async () => {
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(sessionId).toBeTruthy();
    await init.body?.cancel();
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)).status).toBe(202);

    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'start', arguments: {} } };
    const replies = await Promise.all([1, 2, 3, 4].map(async () => {
      const response = await post(call, sessionId);
      return { status: response.status, messages: await messagesOf(response) };
    }));
    for (const { status, messages } of replies) {
      if (status === 200) expect(messages.find((m) => m.id === 7)?.result).toBeDefined();
      else {
        expect(status).toBe(400);
        expect(messages[0]!.error?.message).toMatch(/7.*in flight/);
      }
    }
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);

    const again = await post({ ...call, params: { name: 'end', arguments: {} } }, sessionId);
    expect(again.status).toBe(200);
    expect((await messagesOf(again)).find((m) => m.id === 7)?.result).toBeDefined();
    await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${KEY}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } });
  });
});
