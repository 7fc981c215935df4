// Issue 20: the internal surface (/_cluster on every node) serves only the cluster's nodes. A missing or
// forged cluster secret is refused, for HTTP and websockets, whatever project it names; the right one
// is served (so the refusals are the secret's doing). The secret never appears in what a node writes.
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { START_BODY, startCluster, startSession, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(2);
}, 120_000);
afterAll(async () => cluster?.close());

const upgradeStatus = (url: string, headers: Record<string, string>) =>
  new Promise<number>((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('error', () => resolve(0));
  });

it('refuses requests on the internal URL without the cluster secret, and serves them with it', async () => {
  const [a] = cluster.nodes as [any];
  const { sessionId, cdpUrl } = await startSession(a);
  const path = `/_cluster/v1/sessions/${sessionId}/navigate`;
  const body = JSON.stringify({ url: cluster.fixtures.url('forms.html') });
  const forged = 'f'.repeat(cluster.secret.length);
  for (const headers of <Array<Record<string, string>>>[{}, { 'x-deckhand-cluster-secret': forged }, { 'x-deckhand-cluster-secret': '' }, { 'x-deckhand-cluster-secret': cluster.secret.slice(0, -1) }]) {
    const answer = await fetch(`${a.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-deckhand-project': 'alpha', ...headers }, body });
    expect(answer.status).toBe(401);
    const error = await answer.json();
    expect(error.code).toBe('unauthorized');
    expect(JSON.stringify(error)).not.toContain(cluster.secret);
  }
  const start = await fetch(`${a.url}/_cluster/v1/sessions/start`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-deckhand-project': 'beta' }, body: JSON.stringify(START_BODY) });
  expect(start.status).toBe(401);

  const cdpPath = new URL(cdpUrl);
  const internalWs = `ws://${cdpPath.host}/_cluster${cdpPath.pathname}${cdpPath.search}`;
  expect(await upgradeStatus(internalWs, {})).toBe(401);
  expect(await upgradeStatus(internalWs, { 'x-deckhand-cluster-secret': forged })).toBe(401);

  const served = await fetch(`${a.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-deckhand-project': 'alpha', 'x-deckhand-cluster-secret': cluster.secret }, body });
  expect(served.status).toBe(200);
  expect(await upgradeStatus(internalWs, { 'x-deckhand-cluster-secret': cluster.secret })).toBe(101);

  for (const node of cluster.nodes) expect(node.output()).not.toContain(cluster.secret);
});
