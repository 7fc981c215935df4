// Redis commands per request of the cluster-wide state (issue 20, second half), counted by Redis itself
// (INFO commandstats, reset before each phase) on one node of a real redis-server: a start and an end of
// a project with a session limit and a rate, an operation of that project, a natural-language act that
// misses the cache and one that hits it on a second node, an ended session's live page through another node.
import { execFileSync } from 'node:child_process';
import { startFixtureServer, ALLOW_FIXTURES } from '../test/support/fixture-server';
import { startNode } from '../test/support/node-process';
import { startRedis } from '../test/support/redis-server';

const ROUNDS = Number(process.argv[2] ?? 10);
const START = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } };

const redis = await startRedis();
const fixtures = await startFixtureServer();
const env = { DECKHAND_REDIS_URL: redis.url, DECKHAND_CLUSTER_SECRET: 'bench-cluster-state-secret-0123456789abcdef', DECKHAND_API_KEYS: 'k:p:sessions=1000:rate=1000', ...ALLOW_FIXTURES };
const [a, b] = await Promise.all([startNode(env), startNode(env)]);
const cli = (...args: string[]) => execFileSync('redis-cli', ['-p', String(redis.port), ...args], { encoding: 'utf8' });
const post = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: 'POST', headers: { 'x-bb-api-key': 'k', 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, cache: response.headers.get('browserbase-cache-status'), body: await response.json() };
};
/** Commands Redis ran during `work`, by name, per round (a script's inner calls are counted under their own names too). */
async function measure(label: string, work: (round: number) => Promise<void>): Promise<string> {
  cli('CONFIG', 'RESETSTAT');
  for (let i = 0; i < ROUNDS; i++) await work(i);
  const counts = [...cli('INFO', 'commandstats').matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)]
    .filter(([, name]) => !['config|resetstat', 'info'].includes(name!))
    .map(([, name, calls]) => `${name} ${(Number(calls) / ROUNDS).toFixed(1)}`);
  return `| ${label} | ${counts.join(', ') || 'none'} |`;
}

const rows: string[] = [];
const ids: string[] = [];
rows.push(await measure('start (project with sessions= and rate=)', async () => { ids.push((await post(`${a.url}/v1/sessions/start`, START)).body.data.sessionId); }));
rows.push(await measure('navigate (project with rate=)', async (i) => { await post(`${a.url}/v1/sessions/${ids[i]}/navigate`, { url: fixtures.url('forms.html') }); }));
rows.push(await measure('act, string, first on this page (MISS, stored)', async (i) => { await post(`${a.url}/v1/sessions/${ids[i]}/act`, { input: `click the Go button ${'!'.repeat(i)}`.trim() }); }));
rows.push(await measure('act, same string (HIT in this node\'s memory)', async (i) => { await post(`${a.url}/v1/sessions/${ids[i]}/act`, { input: `click the Go button ${'!'.repeat(i)}`.trim() }); }));
const urls: string[] = [];
rows.push(await measure('end', async (i) => {
  urls.push((await post(`${a.url}/v1/sessions/${ids[i]}/end`, {})).body.success ? ids[i]! : '');
}));
const onB: string[] = [];
rows.push(await measure('start on another node + navigate', async () => {
  const id = (await post(`${b.url}/v1/sessions/start`, START)).body.data.sessionId as string;
  onB.push(id);
  await post(`${b.url}/v1/sessions/${id}/navigate`, { url: fixtures.url('forms.html') });
}));
rows.push(await measure('act on the other node, string resolved on the first (HIT from Redis)', async (i) => { await post(`${b.url}/v1/sessions/${onB[i]}/act`, { input: `click the Go button ${'!'.repeat(i)}`.trim() }); }));
for (const id of onB) await post(`${b.url}/v1/sessions/${id}/end`, {});

console.log(`# bench/cluster-state-ops.ts (${new Date().toISOString().slice(0, 10)}), ${ROUNDS} rounds\n`);
console.log('| request | Redis commands per request (by name) |\n|---|---|');
console.log(rows.join('\n'));
await Promise.all([a.stop(), b.stop()]);
await Promise.all([redis.stop(), fixtures.close()]);
