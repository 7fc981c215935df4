// Issue 20's false death: a node too starved to beat (here paused with SIGSTOP) was swept as dead while its
// browsers still ran. A pause a little longer than the heartbeat's TTL is no death any more; after a longer
// one the node re-claims what it holds: its sessions answer on every node again, and its project slots
// count again, even past the project's limit until one of them ends.
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keys } from '../../packages/server/src/cluster/keys';
import { call, eventually, KEYS, startCluster, startSession, START_BODY, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  // Project beta may hold one session at a time, across the nodes.
  cluster = await startCluster(2, { DECKHAND_API_KEYS: `${KEYS.alpha}:alpha,${KEYS.beta}:beta:sessions=1` });
}, 120_000);
afterAll(async () => {
  // A paused node would not die of SIGKILL's wait: let it run first.
  for (const node of cluster?.nodes ?? []) resume(node.pid);
  await cluster?.close();
});

it('a node paused for 7.5 s (its heartbeat expires after 6) is not declared dead: its session never answers 410', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const page = { url: cluster.fixtures.url('forms.html') };
  const onA = await startSession(a);
  expect((await call(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, page)).status).toBe(200);

  // The pause starts just after A's beat (read from the registry), so it is the whole gap between two beats.
  const redis = createClient({ url: cluster.redis.url });
  await redis.connect();
  const nodeId = (await redis.hGet(keys.session(onA.sessionId), 'node'))!;
  const before = await redis.zScore(keys.nodes, nodeId);
  expect(await eventually(async () => (await redis.zScore(keys.nodes, nodeId)) !== before, 5_000, 10)).toBe(true);
  await redis.close();
  process.kill(a.pid, 'SIGSTOP');
  // Requests on B meanwhile: forwarded to A, they wait for it (up to the forward deadline, 5 s); none may be told the session was lost.
  const answers: Array<Promise<string>> = [];
  try {
    for (let second = 0; second < 7; second++) {
      answers.push(call(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, page).then((answer) => `${answer.status} ${answer.body.code ?? ''}: ${answer.body.message ?? ''}`));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    resume(a.pid);
  }
  // 503 (retry-after) is what a slow owner may cost; 410 session_lost would be a lie about a live session.
  for (const answer of await Promise.all(answers)) expect(answer).toMatch(/^(200 |503 cluster_unavailable)/);
  expect((await call(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, page)).status).toBe(200);
}, 60_000);

it('a node paused past its death and its slots\' expiry re-claims its sessions and slots once it runs again', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const page = { url: cluster.fixtures.url('forms.html') };
  const onA = await startSession(a);
  const betaOnA = await startSession(a, KEYS.beta);
  expect((await call(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, page)).status).toBe(200);
  expect((await call(b, 'POST', '/v1/sessions/start', START_BODY, KEYS.beta)).status).toBe(429);

  process.kill(a.pid, 'SIGSTOP');
  try {
    // Paused for longer than any heartbeat may be missed: B declares it dead, as it should for a dead node.
    // A request forwarded to the paused node waits for it up to the forward deadline (5 s): the client gives up after 2 s.
    const lost = async () => {
      const answer = await fetch(`${b.url}/v1/sessions/${onA.sessionId}/navigate`, {
        method: 'POST',
        headers: { 'x-bb-api-key': KEYS.alpha, 'content-type': 'application/json' },
        body: JSON.stringify(page),
        signal: AbortSignal.timeout(2_000),
      }).catch(() => undefined);
      return answer?.status === 410 && (await answer.json()).code === 'session_lost';
    };
    expect(await eventually(lost, 20_000)).toBe(true);
    // And, once A's slot expired unrenewed, beta's one slot is free for a start on B.
    let betaOnB: { sessionId: string } | undefined;
    expect(
      await eventually(async () => {
        const started = await call(b, 'POST', '/v1/sessions/start', START_BODY, KEYS.beta);
        if (started.status === 200) betaOnB = started.body.data;
        return started.status === 200;
      }, 20_000, 1_000),
    ).toBe(true);
    resume(a.pid);

    // A's sessions still run: every node answers for them again, none says they were lost.
    const works = async (node: { url: string }, sessionId: string, key: string) => (await call(node, 'POST', `/v1/sessions/${sessionId}/navigate`, page, key)).status === 200;
    expect(await eventually(async () => (await works(b, onA.sessionId, KEYS.alpha)) && (await works(b, betaOnA.sessionId, KEYS.beta)), 10_000)).toBe(true);
    expect((await call(a, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, page)).status).toBe(200);
    const listed = await call(b, 'GET', '/v1/sessions');
    expect(listed.body.data.sessions.find((s: { sessionId: string }) => s.sessionId === onA.sessionId)?.state).toBe('ready');

    // Beta now holds two sessions against a limit of one: no start until it is back under the limit (A's
    // re-claimed slot still counts once B's session ended).
    expect((await call(a, 'POST', '/v1/sessions/start', START_BODY, KEYS.beta)).status).toBe(429);
    expect((await call(b, 'POST', `/v1/sessions/${betaOnB!.sessionId}/end`, {}, KEYS.beta)).status).toBe(200);
    expect((await call(b, 'POST', '/v1/sessions/start', START_BODY, KEYS.beta)).status).toBe(429);
    expect((await call(b, 'POST', `/v1/sessions/${betaOnA.sessionId}/end`, {}, KEYS.beta)).status).toBe(200);
    // A frees the slot once that browser has closed.
    expect(await eventually(async () => (await call(b, 'POST', '/v1/sessions/start', START_BODY, KEYS.beta)).status === 200, 10_000)).toBe(true);
  } finally {
    resume(a.pid);
  }
}, 90_000);

function resume(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Already exited.
  }
}
