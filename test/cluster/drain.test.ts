// Issue 20: SIGTERM drains a node. It stops taking sessions (/readyz 503), the streamed act it is running
// finishes and reaches the client (here through another node), then its sessions end and it leaves:
// the others answer its sessions 410 session_gone (ended), not session_lost.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, eventually, KEYS, START_BODY, startCluster, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(2);
}, 120_000);
afterAll(async () => cluster?.close());

it('lets a streamed act finish, then ends the node\'s sessions and leaves the cluster', async () => {
  const [a, b] = cluster.nodes as [any, any];
  // An act on a page that never settles takes the session's whole settle bound (4 s) to answer.
  const started = await call(a, 'POST', '/v1/sessions/start', { ...START_BODY, domSettleTimeoutMs: 4_000 });
  expect(started.status).toBe(200);
  const id = started.body.data.sessionId as string;
  expect((await call(b, 'POST', `/v1/sessions/${id}/navigate`, { url: cluster.fixtures.url('slow.html') })).status).toBe(200);

  const streamed = await fetch(`${b.url}/v1/sessions/${id}/act`, {
    method: 'POST',
    headers: { 'x-bb-api-key': KEYS.alpha, 'content-type': 'application/json', 'x-stream-response': 'true' },
    body: JSON.stringify({ input: { selector: '#ticker', method: 'click', arguments: [], description: 'Never settles' } }),
  });
  expect(streamed.status).toBe(200);
  const reader = streamed.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first).toMatch(/"status":"(starting|connected|running)"/);

  const exited = a.stop('SIGTERM');
  expect(await eventually(async () => (await fetch(`${a.url}/readyz`).catch(() => undefined))?.status === 503, 3_000, 50)).toBe(true);

  let rest = first;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    rest += new TextDecoder().decode(value);
  }
  expect(rest).toMatch(/"status":"finished"/);
  expect(rest).toMatch(/"success":true/);
  expect(await exited).toBe(0);

  const after = await call(b, 'POST', `/v1/sessions/${id}/act`, { input: { selector: '#ticker', method: 'click', arguments: [] } });
  expect(after.status).toBe(410);
  expect(after.body.code).toBe('session_gone');
  // B takes the new sessions now.
  expect((await call(b, 'POST', '/v1/sessions/start', START_BODY)).status).toBe(200);
});
