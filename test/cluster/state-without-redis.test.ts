// What the cluster-wide state does while Redis is down, on a real node: a start (it needs a project slot)
// is 503 cluster_unavailable with retry-after, an act on a session the node holds still answers (its
// cache a miss), a project's rate is still counted (on this node alone), never a 500; and once Redis is
// back, starts work again by themselves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startNode, type NodeProcess } from '../support/node-process';
import { startRedis, type TestRedis } from '../support/redis-server';

const SECRET = 'cluster-state-down-test-secret-0123456789';
const START_BODY = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } };
const HEADERS = { 'x-bb-api-key': 'down-key', 'content-type': 'application/json' };

let redis: TestRedis;
let fixtures: FixtureServer;
let node: NodeProcess;

beforeAll(async () => {
  [redis, fixtures] = await Promise.all([startRedis(), startFixtureServer()]);
  node = await startNode({ DECKHAND_REDIS_URL: redis.url, DECKHAND_CLUSTER_SECRET: SECRET, DECKHAND_API_KEYS: 'down-key:down:sessions=3,slow-key:slow:rate=0.1,free-key:down-free', ...ALLOW_FIXTURES });
}, 60_000);

afterAll(async () => {
  await node?.stop();
  await Promise.all([redis?.stop(), fixtures?.close()]);
}, 60_000);

const post = (path: string, body: unknown, key = 'down-key') =>
  fetch(`${node.url}${path}`, { method: 'POST', headers: { ...HEADERS, 'x-bb-api-key': key }, body: JSON.stringify(body) });

it('Redis down: start is 503 with retry-after, a held session still acts, rates still count; back up, starts work again', async () => {
  const started = await post('/v1/sessions/start', START_BODY, 'free-key');
  expect(started.status).toBe(200);
  const id = ((await started.json()) as { data: { sessionId: string } }).data.sessionId;
  expect((await post(`/v1/sessions/${id}/navigate`, { url: fixtures.url('forms.html') }, 'free-key')).status).toBe(200);

  await redis.stop('SIGKILL');
  await expect.poll(async () => (await post('/v1/sessions/start', START_BODY)).status, { timeout: 10_000 }).toBe(503);
  const refused = await post('/v1/sessions/start', START_BODY);
  expect(refused.status).toBe(503);
  expect(((await refused.json()) as { code: string }).code).toBe('cluster_unavailable');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

  const acted = await post(`/v1/sessions/${id}/act`, { input: 'click the Go button' }, 'free-key');
  expect(acted.status).toBe(200);
  expect(acted.headers.get('browserbase-cache-status')).toBe('MISS');

  // rate=0.1, counted on this node alone meanwhile: a burst of one, then 429. The first is 503: the
  // session is not this project's here, and with Redis down the node cannot ask who else holds it.
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await fetch(`${node.url}/v1/sessions/${id}/replay`, { headers: { 'x-bb-api-key': 'slow-key' } })).status);
  expect(statuses).toEqual([503, 429, 429]);

  await redis.restart();
  await expect.poll(async () => (await post('/v1/sessions/start', START_BODY, 'free-key')).status, { timeout: 15_000 }).toBe(200);
}, 120_000);
