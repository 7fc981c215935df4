// A request sent to a node that does not hold its session is answered as its owner would answer it sent
// there directly: many small headers, or a header section close to the 16 KB limit, run through either node
// (the forward carries only the headers the owner reads), and what either refuses is in the error shape.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, KEYS, startCluster, startSession, type Cluster } from './three-nodes';

let cluster: Cluster;
let sessionId: string;
beforeAll(async () => {
  cluster = await startCluster(2);
  ({ sessionId } = await startSession(cluster.nodes[1]!));
}, 120_000);
afterAll(async () => cluster?.close());

/** The same request through the node that forwards it (A) and to the session's own node (B). */
async function throughBoth(headers: Record<string, string>) {
  const [a, b] = cluster.nodes as [any, any];
  const path = `/v1/sessions/${sessionId}/files`;
  return Promise.all([call(a, 'GET', path, undefined, undefined, headers), call(b, 'GET', path, undefined, undefined, headers)]);
}

/** A GET of the session's files with a head of exactly these headers (no client adds its own), and its answer. */
function rawGet(node: { url: string }, headers: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(node.url);
  const head = `GET /v1/sessions/${sessionId}/files HTTP/1.1\r\nHost: x\r\nx-bb-api-key: ${KEYS.alpha}\r\n${headers}connection: close\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status: Number(text.split(' ')[1]), body: body.startsWith('{') ? JSON.parse(body) : body });
    });
  });
}

describe('headers of a forwarded request', () => {
  it('1,000 small headers run forwarded as they run direct', async () => {
    const many = Object.fromEntries(Array.from({ length: 1_000 }, (_, k) => [`x-h${k}`, 'v']));
    const [forwarded, direct] = await throughBoth(many);
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    expect(forwarded.status, JSON.stringify(forwarded.body)).toBe(200);
    expect(forwarded.body).toEqual(direct.body);
  });

  it('16,200 bytes of headers run forwarded as they run direct', async () => {
    const [a, b] = cluster.nodes as [any, any];
    const pad = `x-pad: ${'a'.repeat(16_200)}\r\n`;
    const [forwarded, direct] = await Promise.all([rawGet(a, pad), rawGet(b, pad)]);
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    expect(forwarded.status, JSON.stringify(forwarded.body)).toBe(200);
  });

  it('refuses headers over the limit alike, in the error shape, through either node', async () => {
    const [forwarded, direct] = await throughBoth({ 'x-pad': 'a'.repeat(17_000) });
    for (const answer of [forwarded, direct]) {
      expect(answer.status).toBe(431);
      expect(answer.body).toMatchObject({ success: false, code: 'headers_too_large' });
    }
  });
});

describe('headers of a forwarded MCP request', () => {
  const mcpHeaders = { authorization: `Bearer ${KEYS.alpha}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  /** A 2025-11-25 MCP session held by `node`, initialized as a client does (initialize, then initialized). */
  async function mcpSessionOn(node: { url: string }): Promise<string> {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'headers-test', version: '1.0.0' } } };
    const opened = await fetch(`${node.url}/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify(initialize) });
    expect(opened.status, await opened.clone().text()).toBe(200);
    await opened.text();
    const id = opened.headers.get('mcp-session-id')!;
    const initialized = await fetch(`${node.url}/mcp`, { method: 'POST', headers: { ...mcpHeaders, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    expect(initialized.status).toBe(202);
    return id;
  }

  /** A tools/list in that MCP session with these extra headers: its status and the JSON-RPC reply (from JSON or the event stream). */
  async function listTools(node: { url: string }, mcpSessionId: string, id: number, extra: Record<string, string>) {
    const headers = { ...extra, ...mcpHeaders, 'mcp-session-id': mcpSessionId, 'mcp-protocol-version': '2025-11-25' };
    const answer = await fetch(`${node.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }) });
    const text = await answer.text();
    const data = /^data: (.*)$/m.exec(text)?.[1];
    let reply: unknown = text;
    try {
      reply = JSON.parse(data ?? text);
    } catch {
      // Not JSON: kept as text, for the assertion's message.
    }
    return { status: answer.status, reply };
  }

  it('1,000 small headers reach the MCP session through the node that does not hold it as they reach it on its node', async () => {
    const [a, b] = cluster.nodes as [any, any];
    const mcpSessionId = await mcpSessionOn(b);
    const many = Object.fromEntries(Array.from({ length: 1_000 }, (_, k) => [`x-h${k}`, 'v']));
    const direct = await listTools(b, mcpSessionId, 2, many);
    const forwarded = await listTools(a, mcpSessionId, 2, many);
    expect(direct.status, JSON.stringify(direct.reply)).toBe(200);
    expect(forwarded.status, JSON.stringify(forwarded.reply)).toBe(200);
    expect(forwarded.reply).toEqual(direct.reply);
    expect((direct.reply as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });
});
