// A forward's deadline: a request sent on to a session's node that does not take it (paused with SIGSTOP)
// answers 503 cluster_unavailable with retry-after instead of waiting for ever, while an operation that
// a live owner took runs as long as it takes, JSON or streamed (the deadline is for taking the request).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, KEYS, startCluster, startSession, type Cluster } from './three-nodes';

const DEADLINE_MS = 1_000;
/** How long this test's client waits for any answer: far past the deadline, short of the test's own timeout. */
const PATIENCE_MS = 15_000;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(2, { DECKHAND_FORWARD_DEADLINE_MS: String(DEADLINE_MS) });
}, 120_000);
afterAll(async () => {
  for (const node of cluster?.nodes ?? []) resume(node.pid);
  await cluster?.close();
});

/** A client's request with a patience of its own: undefined when no answer came. */
async function patiently(node: { url: string }, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: { 'x-bb-api-key': KEYS.alpha, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(PATIENCE_MS),
  }).catch(() => undefined);
  if (!response) return undefined;
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text };
}

it('an operation longer than the deadline on a live owner is not cut: JSON and streamed', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const onA = await startSession(a);
  // The page takes three deadlines to load, and navigate answers once it has.
  const slow = { url: cluster.fixtures.url(`/api/slow-page?ms=${3 * DEADLINE_MS}&page=forms.html`) };
  const json = await patiently(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, slow);
  expect(json?.status, json?.text).toBe(200);
  const streamed = await patiently(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, slow, { 'x-stream-response': 'true' });
  expect(streamed?.status, streamed?.text).toBe(200);
  expect(streamed?.text).toMatch(/"status":"finished"/);
}, 60_000);

it('a request forwarded to a paused owner answers 503 cluster_unavailable with retry-after, and the owner does not run it later', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const onA = await startSession(a);
  const first = { url: cluster.fixtures.url('forms.html') };
  expect((await call(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, first)).status).toBe(200);

  process.kill(a.pid, 'SIGSTOP');
  let navigate, read;
  try {
    // The paused node's heartbeat has not lapsed (it dies only after 10 s without one): it is not lost, only silent.
    [navigate, read] = await Promise.all([
      patiently(b, 'POST', `/v1/sessions/${onA.sessionId}/navigate`, { url: cluster.fixtures.url('select.html') }),
      patiently(b, 'GET', `/v1/sessions/${onA.sessionId}/replay`),
    ]);
  } finally {
    resume(a.pid);
  }
  for (const answer of [navigate, read]) {
    expect(answer, 'no answer while the owner was paused').toBeDefined();
    expect(answer!.status, answer!.text).toBe(503);
    expect(JSON.parse(answer!.text)).toMatchObject({ success: false, code: 'cluster_unavailable' });
    expect(answer!.text).toMatch(/did not answer within 1 s/);
    expect(Number(answer!.retryAfter)).toBeGreaterThan(0);
  }

  // Running again, the owner serves the session through B; the navigate B gave up on was cancelled with its
  // connection, so the page is still the first one.
  const replay = await call(b, 'GET', `/v1/sessions/${onA.sessionId}/replay`);
  expect(replay.status).toBe(200);
  const urls = JSON.stringify(replay.body);
  expect(urls).toContain('forms.html');
  expect(urls).not.toContain('select.html');
}, 60_000);

function resume(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Already exited.
  }
}
