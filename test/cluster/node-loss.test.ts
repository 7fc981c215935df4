// Issue 20: a node dies (kill -9). Within 15 s every other node answers its sessions with 410
// session_lost, saying why, and never a 500 meanwhile; the other nodes' sessions carry on.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, eventually, startCluster, startSession, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => cluster?.close());

it('answers a killed node\'s sessions with 410 session_lost on B and C within 15 s; B\'s and C\'s keep working', async () => {
  const [a, b, c] = cluster.nodes as [any, any, any];
  const onA = await startSession(a);
  const onB = await startSession(b);
  const onC = await startSession(c);
  const page = { url: cluster.fixtures.url('forms.html') };
  expect((await call(c, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, page)).status).toBe(200);

  await a.stop('SIGKILL');
  const killedAt = Date.now();
  const seen = new Set<number>();
  const lostOn = async (node: { url: string }) => {
    const answer = await call(node, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, page);
    seen.add(answer.status);
    return answer.status === 410 && answer.body.code === 'session_lost';
  };
  expect(await eventually(async () => (await lostOn(b)) && (await lostOn(c)), 15_000)).toBe(true);
  expect(Date.now() - killedAt).toBeLessThan(15_000);
  // Meanwhile only 503 (the owner not answering yet) or the final 410: never a 500.
  expect([...seen].filter((status) => status !== 503 && status !== 410), `statuses seen: ${[...seen].join(', ')}`).toEqual([]);

  const lost = await call(b, 'GET', `/v1/sessions/${onA.sessionId}/replay`);
  expect(lost.status).toBe(410);
  expect(lost.body.message).toMatch(/stopped answering/);

  expect((await call(c, 'POST', `/v1/sessions/${onB.sessionId}/navigate`, page)).status).toBe(200);
  expect((await call(b, 'POST', `/v1/sessions/${onC.sessionId}/navigate`, page)).status).toBe(200);
  const fresh = await startSession(b);
  expect((await call(c, 'POST', `/v1/sessions/${fresh.sessionId}/navigate`, page)).status).toBe(200);
  // Three starts and the 15 s wait: under CI load the whole took more than the default 30 s.
}, 60_000);
