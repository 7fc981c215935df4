// Issue 20: GET /v1/sessions on a cluster lists the project's sessions of every node, the same on
// every node (pages and cursors too), never another project's; with Redis down it answers 503.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, eventually, KEYS, startCluster, startSession, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => cluster?.close());

const listOn = async (node: { url: string }, query = '', key: string = KEYS.alpha) => {
  const answer = await call(node, 'GET', `/v1/sessions${query}`, undefined, key);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { sessions: Array<{ sessionId: string; state: string; createdAt: string; endedAt?: string }>; nextCursor?: string };
};

it('lists every node\'s sessions of the project, the same through every node, a page at a time', async () => {
  const [a, b, c] = cluster.nodes as [any, any, any];
  const onA = await startSession(a);
  const onB = await startSession(b);
  const onC = await startSession(c);
  const ended = await startSession(c);
  const foreign = await startSession(b, KEYS.beta);
  expect((await call(a, 'POST', `/v1/sessions/${ended.sessionId}/end`, {})).status).toBe(200);
  // Its node writes the end to the registry just after answering.
  await expect.poll(async () => (await listOn(b)).sessions.find((session) => session.sessionId === ended.sessionId)?.state, { timeout: 5_000 }).toBe('ended');

  const lists = await Promise.all(cluster.nodes.map((node) => listOn(node)));
  const ids = lists[0]!.sessions.map((session) => session.sessionId);
  expect(ids).toEqual([ended, onC, onB, onA].map((session) => session.sessionId));
  for (const list of lists) expect(list).toEqual(lists[0]);
  const byId = Object.fromEntries(lists[0]!.sessions.map((session) => [session.sessionId, session]));
  expect(byId[onA.sessionId]!.state).toBe('ready');
  expect(byId[ended.sessionId]).toMatchObject({ state: 'ended', endedAt: expect.any(String) });
  expect(ids).not.toContain(foreign.sessionId);
  for (const node of cluster.nodes) expect((await listOn(node, '', KEYS.beta)).sessions.map((session) => session.sessionId)).toEqual([foreign.sessionId]);

  // One page on each node in turn, each with the cursor another node gave.
  const paged: string[] = [];
  let cursor: string | undefined;
  for (const node of [a, b, c, a]) {
    const page = await listOn(node, `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    paged.push(...page.sessions.map((session) => session.sessionId));
    cursor = page.nextCursor;
  }
  expect(paged).toEqual(ids);
  expect(cursor).toBeUndefined();
  const bad = await call(b, 'GET', '/v1/sessions?cursor=not-a-cursor');
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe('validation_error');
});

it('answers 503 cluster_unavailable with retry-after while Redis is down, and the whole list once it is back', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const kept = await startSession(a);
  await cluster.redis.stop('SIGKILL');
  expect(await eventually(async () => (await call(b, 'GET', '/v1/sessions')).status === 503, 5_000)).toBe(true);
  const down = await call(a, 'GET', '/v1/sessions');
  expect(down.status).toBe(503);
  expect(down.body.code).toBe('cluster_unavailable');
  expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);

  // Redis comes back empty: the nodes write their running sessions again.
  await cluster.redis.restart();
  expect(await eventually(async () => {
    const answer = await call(b, 'GET', '/v1/sessions');
    return answer.status === 200 && answer.body.data.sessions.some((session: { sessionId: string }) => session.sessionId === kept.sessionId);
  }, 15_000)).toBe(true);
});
