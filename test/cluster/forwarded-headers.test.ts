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
