// The hosted /mcp of the main server: the project keys in the spec's three ways, the query options,
// DNS-rebinding refusals, sessions shared with the HTTP API by project, and keepAlive re-attach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { connectHttp, text } from './mcp-clients';

const KEYS = { one: 'hosted-key-one', two: 'hosted-key-two' };
let fixtures: FixtureServer;
let server: TestServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  server = await startTestServer({ ...ALLOW_FIXTURES, DECKHAND_API_KEYS: `${KEYS.one}:proj-one,${KEYS.two}:proj-two`, DECKHAND_MCP_IDLE_MS: '3000' });
});

afterAll(async () => {
  await server?.close();
  await fixtures?.close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function initialize(query = '', headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/mcp${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: INITIALIZE,
  });
}

async function sessionRecord(id: string, key: string): Promise<Response> {
  return fetch(`${server.url}/v1/sessions/${id}`, { headers: { 'x-bb-api-key': key } });
}

describe('hosted /mcp authentication', () => {
  it.each([
    ['Authorization: Bearer', '', { authorization: `Bearer ${KEYS.one}` }],
    ['x-bb-api-key', '', { 'x-bb-api-key': KEYS.one }],
    ['the deprecated browserbaseApiKey query parameter', `?browserbaseApiKey=${KEYS.one}`, {}],
  ])('accepts the key in %s', async (_way, query, headers) => {
    const response = await initialize(query, headers);
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    await response.body?.cancel();
  });

  it('logs the query-string key as deprecated, without the key', async () => {
    const response = await initialize(`?browserbaseApiKey=${KEYS.one}`);
    await response.body?.cancel();
    const line = server.logs.find((l) => l.includes('deprecated') && l.includes('browserbaseApiKey'));
    expect(line).toBeDefined();
    expect(server.logs.join('\n')).not.toContain(KEYS.one);
  });

  it('prefers Bearer over x-bb-api-key (the spec order)', async () => {
    const response = await initialize('', { authorization: `Bearer ${KEYS.one}`, 'x-bb-api-key': 'wrong' });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it.each([
    ['a missing key', {}, /Missing API key/],
    ['a wrong key', { authorization: 'Bearer nope' }, /Unknown API key/],
  ])('refuses %s with 401 in the one error shape', async (_case, headers, message) => {
    const response = await initialize('', headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const body = await response.json();
    expect(body).toMatchObject({ success: false, code: 'unauthorized' });
    expect(body.message).toMatch(message);
  });

  it('refuses a foreign Origin on a loopback server (DNS rebinding)', async () => {
    const response = await initialize('', { authorization: `Bearer ${KEYS.one}`, origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    await response.body?.cancel();
  });
});

describe('hosted /mcp query parameters', () => {
  const auth = { authorization: `Bearer ${KEYS.one}` };
  it.each(['keepAlive', 'proxies', 'verified'])('%s must be exactly true or false', async (name) => {
    for (const value of ['yes', 'TRUE', '1', '']) {
      const response = await initialize(`?${name}=${encodeURIComponent(value)}`, auth);
      expect(response.status, `${name}=${value}`).toBe(400);
      const body = await response.json();
      expect(body).toMatchObject({ success: false, code: 'validation_error' });
      expect(body.message).toContain(name);
    }
    for (const value of ['true', 'false']) {
      if (name === 'proxies' && value === 'true') continue;
      const response = await initialize(`?${name}=${value}`, auth);
      expect(response.status, `${name}=${value}`).toBe(200);
      await response.body?.cancel();
    }
  });

  it('caps: every value counts, an unknown name is refused even beside all, and an empty list is refused', async () => {
    const tools = async (query: string) => {
      const connection = await connectHttp(`${server.url}/mcp${query}`, 'legacy', auth);
      try {
        return (await connection.client.listTools()).tools.map((tool) => tool.name).sort();
      } finally {
        await connection.close();
      }
    };
    const both = await tools('?caps=read,vision');
    expect(both.length).toBeGreaterThan((await tools('?caps=read')).length);
    expect(await tools('?caps=read&caps=vision')).toEqual(both);
    for (const [query, named] of [['?caps=all&caps=foo', 'foo'], ['?caps=all,foo', 'foo'], ['?caps=', 'no group'], ['?caps=,', 'no group']]) {
      const response = await initialize(query!, auth);
      expect(response.status, query).toBe(400);
      const body = await response.json();
      expect(body, query).toMatchObject({ success: false, code: 'validation_error' });
      expect(body.message, query).toContain(named);
    }
  });

  it('needs modelApiKey for a model other than the default', async () => {
    const response = await initialize('?modelName=openai/gpt-4.1-mini', auth);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/modelApiKey is required/);
    const ok = await initialize('?modelName=openai/gpt-4.1-mini&modelApiKey=sk-test', auth);
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it('refuses proxies=true when the operator configured no proxy', async () => {
    const response = await initialize('?proxies=true', auth);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/proxies.*DECKHAND_PROXY_URL/);
  });
});

describe('hosted /mcp sessions and projects', () => {
  it('starts sessions in the key’s project: visible over the HTTP API to it, unknown to another project', async () => {
    const connection = await connectHttp(`${server.url}/mcp`, 'legacy', { authorization: `Bearer ${KEYS.one}` });
    try {
      const started = await connection.client.callTool({ name: 'start', arguments: {} });
      const id = (started.structuredContent as { sessionId: string }).sessionId;
      expect((await sessionRecord(id, KEYS.one)).status).toBe(200);
      expect((await sessionRecord(id, KEYS.two)).status).toBe(404);
      // And the other way round: another project cannot attach to it over MCP.
      const other = await connectHttp(`${server.url}/mcp`, 'legacy', { authorization: `Bearer ${KEYS.two}` });
      const attached = await other.client.callTool({ name: 'start', arguments: { sessionId: id } });
      expect(attached.isError).toBe(true);
      await other.close();
    } finally {
      await connection.close();
    }
  });

  it('attaches over MCP to a session started over the HTTP API', async () => {
    const response = await fetch(`${server.url}/v1/sessions/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-bb-api-key': KEYS.one },
      body: JSON.stringify({ modelName: 'builtin/offline' }),
    });
    const id = ((await response.json()) as { data: { sessionId: string } }).data.sessionId;
    const connection = await connectHttp(`${server.url}/mcp`, 'legacy', { authorization: `Bearer ${KEYS.one}` });
    try {
      const attached = await connection.client.callTool({ name: 'start', arguments: { sessionId: id } });
      expect(attached.structuredContent).toEqual({ sessionId: id, liveViewUrl: expect.stringContaining(id) });
      await connection.client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      const end = await connection.client.callTool({ name: 'end', arguments: {} });
      expect(text(end)).toContain(id);
      expect((await sessionRecord(id, KEYS.one)).status).toBe(410);
    } finally {
      await connection.close();
    }
  });

  it('keeps the browser session past its MCP session with keepAlive=true, and re-attaches with start {sessionId}', async () => {
    const url = `${server.url}/mcp?keepAlive=true`;
    const first = await connectHttp(url, 'legacy', { authorization: `Bearer ${KEYS.one}` });
    const id = ((await first.client.callTool({ name: 'start', arguments: {} })).structuredContent as { sessionId: string }).sessionId;
    await first.client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
    await first.client.callTool({ name: 'act', arguments: { action: 'click Go' } });
    await first.close();
    expect((await sessionRecord(id, KEYS.one)).status).toBe(200);

    const second = await connectHttp(url, 'legacy', { authorization: `Bearer ${KEYS.one}` });
    try {
      const attached = await second.client.callTool({ name: 'start', arguments: { sessionId: id } });
      expect(attached.structuredContent).toEqual({ sessionId: id, liveViewUrl: expect.stringContaining(id) });
      const extracted = await second.client.callTool({ name: 'extract', arguments: {} });
      expect((extracted.structuredContent as { extraction: string }).extraction).toContain('clicked: go');
      await second.client.callTool({ name: 'end', arguments: {} });
    } finally {
      await second.close();
    }
    expect((await sessionRecord(id, KEYS.one)).status).toBe(410);
  });

  it('ends the browser session a second start replaces (one active session per MCP session)', async () => {
    const connection = await connectHttp(`${server.url}/mcp`, 'legacy', { authorization: `Bearer ${KEYS.one}` });
    try {
      const first = ((await connection.client.callTool({ name: 'start', arguments: {} })).structuredContent as { sessionId: string }).sessionId;
      const second = ((await connection.client.callTool({ name: 'start', arguments: {} })).structuredContent as { sessionId: string }).sessionId;
      expect(second).not.toBe(first);
      expect((await sessionRecord(first, KEYS.one)).status).toBe(410);
      expect((await sessionRecord(second, KEYS.one)).status).toBe(200);
    } finally {
      await connection.close();
    }
  });

  it('ends the browser session with its MCP session without keepAlive', async () => {
    const connection = await connectHttp(`${server.url}/mcp`, 'legacy', { authorization: `Bearer ${KEYS.one}` });
    const id = ((await connection.client.callTool({ name: 'start', arguments: {} })).structuredContent as { sessionId: string }).sessionId;
    await connection.close();
    await expect.poll(async () => (await sessionRecord(id, KEYS.one)).status).toBe(410);
  });
});
