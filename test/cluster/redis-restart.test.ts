// Issue 20: Redis goes away in the middle of a run and comes back empty (persistence is off). Meanwhile a
// node still serves the sessions it owns; a start and a forwarded request answer 503 with retry-after;
// nothing answers 500. Once Redis is back the nodes write their sessions again and all works as before.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, eventually, startCluster, startSession, START_BODY, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(2);
}, 120_000);
afterAll(async () => cluster?.close());

it('serves owned sessions while Redis is down, answers 503 with retry-after for the rest, and recovers by itself', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const { sessionId } = await startSession(a);
  const page = { url: cluster.fixtures.url('forms.html') };
  expect((await call(b, 'POST', `/v1/sessions/${sessionId}/navigate`, page)).status).toBe(200);

  await cluster.redis.stop('SIGKILL');
  // The node that owns it answers as before.
  expect(await eventually(async () => (await call(b, 'POST', `/v1/sessions/${sessionId}/navigate`, page)).status === 503, 5_000)).toBe(true);
  expect((await call(a, 'POST', `/v1/sessions/${sessionId}/navigate`, page)).status).toBe(200);
  const forwarded = await call(b, 'POST', `/v1/sessions/${sessionId}/navigate`, page);
  expect(forwarded.status).toBe(503);
  expect(forwarded.body.code).toBe('cluster_unavailable');
  expect(Number(forwarded.headers.get('retry-after'))).toBeGreaterThan(0);
  const start = await call(a, 'POST', '/v1/sessions/start', START_BODY);
  expect(start.status).toBe(503);
  expect(start.headers.get('retry-after')).not.toBeNull();
  expect((await fetch(`${a.url}/healthz`)).status).toBe(200);

  await cluster.redis.restart();
  expect(await eventually(async () => (await call(b, 'POST', `/v1/sessions/${sessionId}/navigate`, page)).status === 200, 10_000)).toBe(true);
  const fresh = await startSession(b);
  expect((await call(a, 'POST', `/v1/sessions/${fresh.sessionId}/navigate`, page)).status).toBe(200);
  for (const node of cluster.nodes) expect(node.output()).not.toMatch(/"level":"error"/);
});
