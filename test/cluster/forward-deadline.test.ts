// A forward's deadline: a request sent on to a session's node that does not take it (paused with SIGSTOP)
// answers 503 cluster_unavailable with retry-after instead of waiting for ever, while an operation that
// a live owner took runs as long as it takes, JSON or streamed (the deadline is for taking the request).
// The same for MCP: a tool call an MCP session sends to its browser session's node (either revision),
// and a 2025-11-25 MCP request sent on to the node that holds its MCP session.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, text, type Era } from '../mcp/mcp-clients';
import { call, KEYS, startCluster, startSession, type Cluster } from './three-nodes';

const DEADLINE_MS = 1_000;
/** How long this test's client waits for any answer: far past the deadline, short of the test's own timeout. */
const PATIENCE_MS = 15_000;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(2, { DECKHAND_FORWARD_DEADLINE_MS: String(DEADLINE_MS) });
}, 120_000);
afterAll(async () => {
  for (const node of cluster?.nodes ?? []) resume(node.pid);
  await cluster?.close();
});

/** A client's request with a patience of its own: undefined when no answer came. */
async function patiently(node: { url: string }, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: { 'x-bb-api-key': KEYS.alpha, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(PATIENCE_MS),
  }).catch(() => undefined);
  if (!response) return undefined;
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text };
}

it('an operation longer than the deadline on a live owner is not cut: JSON and streamed', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const onA = await startSession(a);
  // The page takes three deadlines to load, and navigate answers once it has.
  const slow = { url: cluster.fixtures.url(`/api/slow-page?ms=${3 * DEADLINE_MS}&page=forms.html`) };
  const json = await patiently(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, slow);
  expect(json?.status, json?.text).toBe(200);
  const streamed = await patiently(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, slow, { 'x-stream-response': 'true' });
  expect(streamed?.status, streamed?.text).toBe(200);
  expect(streamed?.text).toMatch(/"status":"finished"/);
}, 60_000);

it('a request forwarded to a paused owner answers 503 cluster_unavailable with retry-after, and the owner does not run it later', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const onA = await startSession(a);
  const first = { url: cluster.fixtures.url('forms.html') };
  expect((await call(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, first)).status).toBe(200);

  process.kill(a.pid, 'SIGSTOP');
  let navigate, read;
  try {
    // The paused node's heartbeat has not lapsed (it dies only after 10 s without one): it is not lost, only silent.
    [navigate, read] = await Promise.all([
      patiently(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, { url: cluster.fixtures.url('select.html') }),
      patiently(b, 'GET', `/v1/sessions/${onA.sessionId}/replay`),
    ]);
  } finally {
    resume(a.pid);
  }
  for (const answer of [navigate, read]) {
    expect(answer, 'no answer while the owner was paused').toBeDefined();
    expect(answer!.status, answer!.text).toBe(503);
    expect(JSON.parse(answer!.text)).toMatchObject({ success: false, code: 'cluster_unavailable' });
    expect(answer!.text).toMatch(/did not answer within 1 s/);
    expect(Number(answer!.retryAfter)).toBeGreaterThan(0);
  }

  // Running again, the owner serves the session through B; the navigate B gave up on was cancelled with its
  // connection, so the page is still the first one.
  const replay = await call(b, 'GET', `/v1/sessions/${onA.sessionId}/replay`);
  expect(replay.status).toBe(200);
  const urls = JSON.stringify(replay.body);
  expect(urls).toContain('forms.html');
  expect(urls).not.toContain('select.html');
}, 60_000);

describe('MCP forwards', () => {
  const bearer = { authorization: `Bearer ${KEYS.alpha}` };

  it.each<Era>(['legacy', 'modern'])('%s: a tool call sent to the session\'s paused node answers a result saying to retry, and the node does not run it later; a long one on a live node is not cut', async (era) => {
    const [a, b] = cluster.nodes as [any, any];
    const onA = await startSession(a);
    const mcp = await connectHttp(`${b.url}/mcp`, era, bearer);
    try {
      const attached = await mcp.client.callTool({ name: 'start', arguments: { sessionId: onA.sessionId } });
      expect(attached.isError, text(attached)).toBeFalsy();
      // Taken at once by A, the navigate then waits three deadlines for its page.
      const slow = await mcp.client.callTool({ name: 'navigate', arguments: { url: cluster.fixtures.url(`/api/slow-page?ms=${3 * DEADLINE_MS}&page=forms.html`) } });
      expect(slow.isError, text(slow)).toBeFalsy();

      process.kill(a.pid, 'SIGSTOP');
      let paused;
      try {
        paused = await mcp.client.callTool({ name: 'navigate', arguments: { url: cluster.fixtures.url('select.html') } }, { timeout: PATIENCE_MS }).catch(() => undefined);
      } finally {
        resume(a.pid);
      }
      // Soft: a call that hung is a failure, and the rest still shows whether the owner ran it when it woke.
      expect.soft(paused, 'no answer while the owner was paused').toBeDefined();
      expect.soft(paused?.isError).toBe(true);
      expect.soft(text(paused ?? {})).toMatch(/try again/i);
      expect.soft(text(paused ?? {})).toMatch(/did not answer within 1 s/);

      // Awake, A serves the session through B's MCP session again, and never ran the navigate B gave up on.
      const after = await mcp.client.callTool({ name: 'extract', arguments: {} });
      expect(after.isError, text(after)).toBeFalsy();
      await expectNotNavigatedTo(onA.sessionId, 'select.html');
    } finally {
      await mcp.close();
      await call(a, 'POST', `/v1/sessions/${onA.sessionId}/end`, {});
    }
  }, 90_000);

  it('legacy: a request for an MCP session the paused node holds answers 503 cluster_unavailable with retry-after; the SDK client keeps the session, which answers after', async () => {
    const [a, b] = cluster.nodes as [any, any];
    const onA = await startSession(a);
    const held = await connectHttp(`${a.url}/mcp`, 'legacy', bearer);
    const mcpSessionId = (held.client.transport as { sessionId?: string }).sessionId!;
    // The SDK's client on the same MCP session, through B (a transport given the session id skips initialize).
    const sdkThroughB = new Client({ name: 'deckhand-test', version: '1.0.0' });
    await sdkThroughB.connect(new StreamableHTTPClientTransport(new URL(`${b.url}/mcp`), { sessionId: mcpSessionId, requestInit: { headers: bearer } }));
    const throughB = (id: number, name: string, args: unknown) =>
      patiently(b, 'POST', '/mcp', { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, {
        ...bearer,
        accept: 'application/json, text/event-stream',
        'mcp-session-id': mcpSessionId,
        'mcp-protocol-version': '2025-11-25',
      });
    try {
      expect((await held.client.callTool({ name: 'start', arguments: { sessionId: onA.sessionId } })).isError).toBeFalsy();
      const slow = await throughB(1, 'navigate', { url: cluster.fixtures.url(`/api/slow-page?ms=${3 * DEADLINE_MS}&page=forms.html`) });
      expect(slow?.status, slow?.text).toBe(200);
      expect(slow?.text).not.toMatch(/"isError":true/);

      process.kill(a.pid, 'SIGSTOP');
      let paused, sdkPaused;
      try {
        [paused, sdkPaused] = await Promise.all([
          throughB(2, 'navigate', { url: cluster.fixtures.url('select.html') }),
          sdkThroughB.callTool({ name: 'navigate', arguments: { url: cluster.fixtures.url('select.html?sdk') } }, { timeout: PATIENCE_MS }).then(
            (result) => ({ result }),
            (error: Error) => ({ error }),
          ),
        ]);
      } finally {
        resume(a.pid);
      }
      expect.soft(paused, 'no answer while the holder was paused').toBeDefined();
      expect.soft(paused?.status, paused?.text).toBe(503);
      expect.soft(Number(paused?.retryAfter)).toBeGreaterThan(0);
      expect.soft(paused?.text).toMatch(/"code":"cluster_unavailable"/);
      expect.soft(paused?.text).toMatch(/did not answer within 1 s/);
      // The SDK client rejects the call with the HTTP error, our message in it (not its own timeout).
      const sdkError = (sdkPaused as { error?: Error }).error?.message;
      expect.soft(sdkError).toMatch(/did not answer within 1 s/);
      expect.soft(sdkError).toMatch(/cluster_unavailable/);

      // Not a 404: the SDK client keeps its MCP session, which answers through B once A is awake.
      const after = await sdkThroughB.callTool({ name: 'extract', arguments: {} });
      expect(after.isError, text(after)).toBeFalsy();
      await expectNotNavigatedTo(onA.sessionId, 'select.html');
    } finally {
      await sdkThroughB.close();
      await held.close();
      await call(a, 'POST', `/v1/sessions/${onA.sessionId}/end`, {});
    }
  }, 90_000);

  // Last: it kills node A.
  it('legacy: a request for an MCP session whose node is gone (refuses the connection) answers 404, to initialize again', async () => {
    const [a, b] = cluster.nodes as [any, any];
    const held = await connectHttp(`${a.url}/mcp`, 'legacy', bearer);
    const mcpSessionId = (held.client.transport as { sessionId?: string }).sessionId!;
    await a.stop('SIGKILL');
    const answer = await patiently(b, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, {
      ...bearer,
      accept: 'application/json, text/event-stream',
      'mcp-session-id': mcpSessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(answer?.status, answer?.text).toBe(404);
    expect(answer?.text).toMatch(/initialize a new one/);
    await held.client.close();
  }, 60_000);
});

/** The session's replay, read once its node is awake, has no navigate to `page`. */
async function expectNotNavigatedTo(sessionId: string, page: string): Promise<void> {
  const replay = await call(cluster.nodes[0]!, 'GET', `/v1/sessions/${sessionId}/replay`);
  expect(replay.status).toBe(200);
  const urls = JSON.stringify(replay.body);
  expect(urls).toContain('forms.html');
  expect(urls).not.toContain(page);
}

function resume(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Already exited.
  }
}
