// Issue 20: a start goes to the node that received it while it has room, else to the least loaded node
// with room (the start is forwarded); either way the session answers on every node.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startCluster, startSession, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  // A has room for one session, B for plenty.
  cluster = await startCluster(2, {}, [{ DECKHAND_MAX_SESSIONS: '1' }]);
  // Every node's view of the others is refreshed each heartbeat (2 s): let A see B once.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
}, 120_000);
afterAll(async () => cluster?.close());

const sessionsOn = async (node: { url: string }) => (await (await fetch(`${node.url}/healthz`)).json()).sessions as number;

it('places a start on the receiving node while it has room, then on another node', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const first = await startSession(a);
  expect(await sessionsOn(a)).toBe(1);
  expect(await sessionsOn(b)).toBe(0);

  const second = await startSession(a);
  expect(await sessionsOn(a)).toBe(1);
  expect(await sessionsOn(b)).toBe(1);
  for (const { sessionId } of [first, second]) {
    for (const node of [a, b]) expect((await call(node, 'POST', `/v1/sessions/${sessionId}/navigate`, { url: cluster.fixtures.url('forms.html') })).status).toBe(200);
  }
});
