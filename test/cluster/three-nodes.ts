// A cluster for the tests: a real redis-server and three Deckhand nodes (A, B, C) as processes of their
// own, two projects with keys, and small helpers to call any node as a client would.
import { randomBytes } from 'node:crypto';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startNode, type NodeProcess } from '../support/node-process';
import { startRedis, type TestRedis } from '../support/redis-server';

export const KEYS = { alpha: 'key-alpha', beta: 'key-beta' } as const;
export const START_BODY = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } };

export interface Cluster {
  redis: TestRedis;
  fixtures: FixtureServer;
  nodes: NodeProcess[];
  secret: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** `perNode`: settings of one node only, by position. */
export async function startCluster(count = 3, env: Record<string, string> = {}, perNode: Array<Record<string, string>> = []): Promise<Cluster> {
  const redis = await startRedis();
  const fixtures = await startFixtureServer();
  const secret = randomBytes(32).toString('hex');
  const shared = {
    DECKHAND_REDIS_URL: redis.url,
    DECKHAND_CLUSTER_SECRET: secret,
    DECKHAND_API_KEYS: `${KEYS.alpha}:alpha,${KEYS.beta}:beta`,
    // Limits across nodes are the cluster state's own tests; here one project opens several sessions.
    DECKHAND_PROJECT_MAX_SESSIONS: '0',
    DECKHAND_PROJECT_RATE: '0',
    DECKHAND_POOL_SIZE: '0',
    ...ALLOW_FIXTURES,
    ...env,
  };
  const nodes = await Promise.all(Array.from({ length: count }, (_, i) => startNode({ ...shared, ...perNode[i] })));
  return {
    redis,
    fixtures,
    nodes,
    secret,
    env: shared,
    async close() {
      await Promise.all(nodes.map((node) => node.stop('SIGKILL')));
      await redis.stop();
      await fixtures.close();
    },
  };
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** A JSON call on a node, with a project's key. */
export async function call(node: { url: string }, method: 'GET' | 'POST', path: string, body?: unknown, key: string = KEYS.alpha, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: { 'x-bb-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // An event stream or a page.
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

export async function startSession(node: { url: string }, key: string = KEYS.alpha): Promise<{ sessionId: string; cdpUrl: string; sessionUrl: string; debugUrl: string }> {
  const started = await call(node, 'POST', '/v1/sessions/start', START_BODY, key);
  if (started.status !== 200) throw new Error(`start on ${node.url}: ${started.status} ${JSON.stringify(started.body)}`);
  return started.body.data;
}

/** The same URL on another node (what a load balancer in front would do). */
export function onNode(url: string, node: { url: string }): string {
  const moved = new URL(url);
  const target = new URL(node.url);
  moved.host = target.host;
  return moved.href;
}

/** Polls `probe` until it returns true or `ms` passes; returns whether it did. */
export async function eventually(probe: () => Promise<boolean>, ms: number, everyMs = 250): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return probe();
}
