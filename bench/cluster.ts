// What a cluster costs a request, side by side in one run: an Action act on the node that owns the
// session against the same act sent to another node (forwarded over the internal URL), and a session
// start (then end) on a node of a cluster (registry write in Redis) against one on a node without Redis;
// and an MCP tool call with almost no browser work (`wait` 1 ms) on a session of the owning node, from an MCP
// session on that node and from one on another node (the call sent on to the owner).
// Nodes are processes of their own on a real redis-server; the operations run interleaved, in a random
// order each round (a random phase), so a shared machine's changing load hits every row alike.
// With a second argument, the server source of an earlier version (a tree holding packages/server/src,
// e.g. `git archive <commit> packages | tar -x -C /tmp/before`, run on this checkout's node_modules: link
// them in), its owner and forwarding node run too, on a Redis of their own, in the same interleaved rounds.
// Run: npx tsx bench/cluster.ts [rounds] [earlier tree]
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectHttp, type Connection } from '../test/mcp/mcp-clients.js';
import { ALLOW_FIXTURES, startFixtureServer } from '../test/support/fixture-server.js';
import { startNode } from '../test/support/node-process.js';
import { startRedis } from '../test/support/redis-server.js';

const ROUNDS = Number(process.argv[2] ?? 40);
const BEFORE = process.argv[3];
const WARMUP = 5;
const START_BODY = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } };

const redis = await startRedis();
const fixtures = await startFixtureServer();
const quiet = { DECKHAND_LOG_LEVEL: 'error', ...ALLOW_FIXTURES };
const clustered = { ...quiet, DECKHAND_REDIS_URL: redis.url, DECKHAND_CLUSTER_SECRET: randomBytes(32).toString('hex') };
const [owner, other, alone] = await Promise.all([startNode(clustered), startNode(clustered), startNode(quiet)]);
const beforeRedis = BEFORE ? await startRedis() : undefined;
const beforeMain = BEFORE && join(BEFORE, 'packages/server/src/main.ts');
const before = beforeRedis && beforeMain ? await Promise.all([0, 1].map(() => startNode({ ...clustered, DECKHAND_REDIS_URL: beforeRedis.url }, beforeMain))) : [];
const loadAtStart = loadavg()[0]!;

async function post(base: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${base}/v1/sessions/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stream-response': 'false' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok || json.success === false) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function sessionOn(base: string): Promise<string> {
  const { sessionId } = await post(base, 'start', START_BODY);
  await post(base, `${sessionId}/navigate`, { url: fixtures.url('forms.html') });
  return sessionId;
}
const sessionId = await sessionOn(owner.url);
const beforeSessionId = before[0] ? await sessionOn(before[0].url) : '';
const act = (base: string, id = sessionId) => () => post(base, `${id}/act`, { input: { selector: '#go', method: 'click', arguments: [], description: 'the Go button' } });
const startAndEnd = (base: string) => async () => {
  const t0 = performance.now();
  const { sessionId: id } = await post(base, 'start', START_BODY);
  const took = performance.now() - t0;
  await post(base, `${id}/end`, {});
  return took;
};

/** An MCP session on `base` whose browser session is `id` (on the owner): its tool calls go there. */
const mcpClients: Connection[] = [];
async function mcpOn(base: string, id: string): Promise<() => Promise<void>> {
  const connection = await connectHttp(`${base}/mcp?caps=page`, 'legacy');
  mcpClients.push(connection);
  const attached = await connection.client.callTool({ name: 'start', arguments: { sessionId: id } });
  if (attached.isError) throw new Error(`start on ${base}: ${JSON.stringify(attached.content)}`);
  return async () => {
    const result = await connection.client.callTool({ name: 'wait', arguments: { ms: 1 } });
    if (result.isError) throw new Error(`MCP wait on ${base}: ${JSON.stringify(result.content)}`);
  };
}

const replay = (base: string, id = sessionId) => async () => {
  const response = await fetch(`${base}/v1/sessions/${id}/replay`);
  if (!response.ok) throw new Error(`replay: ${response.status}`);
  await response.arrayBuffer();
};

/** Each row's operation returns its own time when only part of it is measured (start without its end). */
const rows: Array<[string, () => Promise<unknown>]> = [
  ['act on the owning node', act(owner.url)],
  ['act through another node (forwarded)', act(other.url)],
  ['replay (a read, no browser work) on the owning node', replay(owner.url)],
  ['replay through another node (forwarded)', replay(other.url)],
  ['start on a node of a cluster (Redis)', startAndEnd(owner.url)],
  ['start on a node without Redis', startAndEnd(alone.url)],
  ['MCP wait on the owning node', await mcpOn(owner.url, sessionId)],
  ['MCP wait through another node (sent to the owner)', await mcpOn(other.url, sessionId)],
];
if (before[0] && before[1]) {
  rows.push(
    ['before: act on the owning node', act(before[0].url, beforeSessionId)],
    ['before: act through another node (forwarded)', act(before[1].url, beforeSessionId)],
    ['before: replay on the owning node', replay(before[0].url, beforeSessionId)],
    ['before: replay through another node (forwarded)', replay(before[1].url, beforeSessionId)],
    ['before: MCP wait on the owning node', await mcpOn(before[0].url, beforeSessionId)],
    ['before: MCP wait through another node (sent to the owner)', await mcpOn(before[1].url, beforeSessionId)],
  );
}
const times = rows.map((): number[] => []);
try {
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const order = rows.map((_, i) => i).sort(() => Math.random() - 0.5);
    for (const i of order) {
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 50));
      const t0 = performance.now();
      const own = await rows[i]![1]();
      if (round >= WARMUP) times[i]!.push(typeof own === 'number' ? own : performance.now() - t0);
    }
  }
} catch (error) {
  for (const node of [owner, other, alone, ...before]) console.error(node.url, node.output().split('\n').filter((line) => /"level":"(error|warn)"/.test(line)).join('\n'));
  await stop();
  throw error;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const lines = [
  `| ${ROUNDS} rounds after ${WARMUP} warm-up, interleaved in random order | median ms | p95 ms |`,
  '|---|---|---|',
  ...rows.map(([name], i) => `| ${name} | ${quantile(times[i]!, 0.5).toFixed(1)} | ${quantile(times[i]!, 0.95).toFixed(1)} |`),
];
const delta = (a: number, b: number) => (quantile(times[a]!, 0.5) - quantile(times[b]!, 0.5)).toFixed(1);
lines.push('', `Forwarding adds ${delta(1, 0)} ms to the median act (goal ≤ 3) and ${delta(3, 2)} ms to the median replay; a start on a node of a cluster adds ${delta(4, 5)} ms to the median (goal ≤ 5); sending an MCP tool call to the owner adds ${delta(7, 6)} ms to the median MCP wait.`);
if (before.length > 0) lines.push(`Before (${BEFORE}): forwarding added ${delta(9, 8)} ms to the median act and ${delta(11, 10)} ms to the median replay; sending an MCP tool call to the owner added ${delta(13, 12)} ms to the median MCP wait.`);
lines.push(`Machine load (1-minute load average, 2 cores): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`);
console.log(lines.join('\n'));
writeFileSync(new URL('./results/cluster.md', import.meta.url), `# bench/cluster.ts (${new Date().toISOString().slice(0, 10)})\n\n${lines.join('\n')}\n`);

await stop();

async function stop(): Promise<void> {
  await Promise.all(mcpClients.map((connection) => connection.close().catch(() => undefined)));
  await Promise.all([owner, other, alone, ...before].map((node) => node.stop('SIGKILL')));
  await redis.stop();
  await beforeRedis?.stop();
  await fixtures.close();
}
