// Cluster-wide state (issue 20) with a real redis-server and three nodes as processes of their own:
// a project's session limit and request rate hold across the nodes together, an act cached on one node
// is a hit on another, a live-page link one node handed out opens through another, also once the
// session has ended, and a hosted MCP session opened on one node is driven through another.
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startNode, type NodeProcess } from '../support/node-process';
import { startRedis, type TestRedis } from '../support/redis-server';

const SECRET = 'cluster-state-test-secret-0123456789abcdef';
const KEYS = ['main-key:main', 'quota-key:quota:sessions=4', 'rate-key:slow:rate=0.1'].join(',');
const START_BODY = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } };

let redis: TestRedis;
let fixtures: FixtureServer;
let nodes: NodeProcess[] = [];

beforeAll(async () => {
  [redis, fixtures] = await Promise.all([startRedis(), startFixtureServer()]);
  const env = { DECKHAND_REDIS_URL: redis.url, DECKHAND_CLUSTER_SECRET: SECRET, DECKHAND_API_KEYS: KEYS, ...ALLOW_FIXTURES };
  nodes = await Promise.all([startNode(env), startNode(env), startNode(env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await Promise.all([redis?.stop(), fixtures?.close()]);
}, 60_000);

async function call(node: NodeProcess, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: { 'x-bb-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const start = (node: NodeProcess, key: string) => call(node, key, 'POST', '/v1/sessions/start', START_BODY);
const end = (node: NodeProcess, key: string, id: string) => call(node, key, 'POST', `/v1/sessions/${id}/end`, {});

describe('cluster-wide state', () => {
  it('a project limit of 4 holds across three nodes, and a slot ended on one node frees a start on another', async () => {
    const replies = await Promise.all(Array.from({ length: 9 }, (_, i) => start(nodes[i % 3]!, 'quota-key').then((reply) => ({ reply, node: nodes[i % 3]! }))));
    const started = replies.filter(({ reply }) => reply.status === 200);
    const refused = replies.filter(({ reply }) => reply.status !== 200);
    expect(started).toHaveLength(4);
    for (const { reply } of refused) {
      expect(reply.status).toBe(429);
      expect(reply.body.code).toBe('session_limit');
    }
    // Full on every node, whichever one is asked.
    for (const node of nodes) expect((await start(node, 'quota-key')).status).toBe(429);

    const [first, ...rest] = started;
    expect((await end(first!.node, 'quota-key', first!.reply.body.data.sessionId)).status).toBe(200);
    const other = nodes.find((node) => node !== first!.node)!;
    const again = await start(other, 'quota-key');
    expect(again.status).toBe(200);
    await end(other, 'quota-key', again.body.data.sessionId);
    await Promise.all(rest.map(({ node, reply }) => end(node, 'quota-key', reply.body.data.sessionId)));
  }, 120_000);

  it('a project request rate holds across three nodes', async () => {
    const began = Date.now();
    const replies = await Promise.all(Array.from({ length: 9 }, (_, i) => call(nodes[i % 3]!, 'rate-key', 'GET', `/v1/sessions/${randomUUID()}/replay`)));
    const seconds = (Date.now() - began) / 1000;
    const passed = replies.filter((reply) => reply.status !== 429);
    // rate=0.1: a burst of one, then one more every 10 s (each node counting alone would pass three).
    expect(passed.length).toBeGreaterThanOrEqual(1);
    expect(passed.length).toBeLessThanOrEqual(1 + Math.floor(seconds * 0.1));
    const limited = replies.find((reply) => reply.status === 429)!;
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('an act cached on one node is a cache hit on another', async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const actOn = async (node: NodeProcess) => {
      const started = await start(node, 'main-key');
      expect(started.status).toBe(200);
      const id = started.body.data.sessionId as string;
      expect((await call(node, 'main-key', 'POST', `/v1/sessions/${id}/navigate`, { url: fixtures.url('forms.html') })).status).toBe(200);
      const acted = await call(node, 'main-key', 'POST', `/v1/sessions/${id}/act`, { input: 'click the Go button' });
      await end(node, 'main-key', id);
      expect(acted.status).toBe(200);
      expect(acted.body.data.result.success).toBe(true);
      return acted.headers.get('browserbase-cache-status');
    };
    expect(await actOn(a)).toBe('MISS');
    expect(await actOn(b)).toBe('HIT');
  }, 120_000);

  it('a live-page link from one node opens through another, and keeps the log once the session ended', async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const started = await start(a, 'main-key');
    const { sessionId: id, sessionUrl } = started.body.data as { sessionId: string; sessionUrl: string };
    await call(a, 'main-key', 'POST', `/v1/sessions/${id}/navigate`, { url: fixtures.url('forms.html') });
    expect((await end(a, 'main-key', id)).status).toBe(200);
    const token = new URL(sessionUrl).searchParams.get('token')!;

    const state = (at: string) => fetch(`${b.url}/v1/sessions/${id}/live/state?token=${encodeURIComponent(at)}`);
    await expect.poll(async () => (await state(token)).status, { timeout: 10_000 }).toBe(200);
    const view = await (await state(token)).json();
    expect(view.ended).toBe('ended');
    expect(view.url).toBe(fixtures.url('forms.html'));
    expect(view.actions.map((action: { method: string }) => action.method)).toContain('navigate');
    expect((await fetch(`${b.url}/v1/sessions/${id}/live?token=${encodeURIComponent(token)}`)).status).toBe(200);

    // A token made for another session, or forged, is refused on B as on A.
    const forged = `${Buffer.from('main').toString('base64url')}.${Buffer.alloc(32).toString('base64url')}`;
    expect((await state(forged)).status).toBe(401);
  }, 120_000);

  it('an MCP session (keepAlive) opened on one node is driven and closed through another; its browser session stays', async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp?keepAlive=true`), { requestInit: { headers: { authorization: 'Bearer main-key' } } });
    const client = new Client({ name: 'cluster-test', version: '1.0.0' });
    await client.connect(transport);
    const started = await client.callTool({ name: 'start', arguments: {} });
    const sessionId = (started.structuredContent as { sessionId: string }).sessionId;
    const mcpSessionId = transport.sessionId!;
    await client.close();

    // The same MCP session, through B: B finds where it is held and passes the request on.
    const throughB = (method: string, body?: unknown) =>
      fetch(`${b.url}/mcp?keepAlive=true`, {
        method,
        headers: { authorization: 'Bearer main-key', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': mcpSessionId, 'mcp-protocol-version': '2025-11-25' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const navigated = await throughB('POST', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'navigate', arguments: { url: fixtures.url('forms.html') } } });
    expect(navigated.status).toBe(200);
    const text = await navigated.text();
    const reply = text.includes('data:') ? JSON.parse(/^data: (.*)$/m.exec(text)![1]!) : JSON.parse(text);
    expect(reply.id).toBe(7);
    expect(reply.result.isError).toBeFalsy();
    const replay = await call(a, 'main-key', 'GET', `/v1/sessions/${sessionId}/replay`);
    expect(replay.body.data.pages.flatMap((page: { actions: Array<{ method: string }> }) => page.actions.map((action) => action.method))).toContain('navigate');

    // Another project's key does not reach it through B either.
    const foreign = await fetch(`${b.url}/mcp`, { method: 'DELETE', headers: { authorization: 'Bearer quota-key', 'mcp-session-id': mcpSessionId, 'mcp-protocol-version': '2025-11-25' } });
    expect(foreign.status).toBe(404);

    // Closed through B; keepAlive keeps its browser session on A for a later start {sessionId}.
    expect((await throughB('DELETE')).status).toBeLessThan(300);
    expect((await throughB('POST', { jsonrpc: '2.0', id: 8, method: 'tools/list' })).status).toBe(404);
    expect((await call(a, 'main-key', 'GET', `/v1/sessions/${sessionId}/replay`)).status).toBe(200);
    await end(a, 'main-key', sessionId);
  }, 120_000);
});
