// Tool-call round trip over each MCP transport, against the same call over the HTTP API: an act the
// offline model resolves deterministically ("click Go") and an observe, on the same fixture page.
// Run: npx tsx bench/mcp-round-trip.ts [rounds]
import { startFixtureServer } from '../test/support/fixture-server.js';
import { startTestServer } from '../test/support/test-server.js';
import { connectHttp, connectStdio, startSelfHosted, type Connection } from '../test/mcp/mcp-clients.js';
import { median } from './support/stats.js';

const rounds = Number(process.argv[2] ?? 20);
const fixtures = await startFixtureServer();
const env = { DECKHAND_NAV_ALLOW: '127.0.0.1,localhost', DECKHAND_CACHE_DIR: '' };
const server = await startTestServer(env);
const selfHosted = await startSelfHosted([], env);

type Calls = { act(): Promise<unknown>; observe(): Promise<unknown> };
const rows: Array<[string, number, number]> = [];

async function measure(name: string, calls: Calls): Promise<void> {
  const times = { act: [] as number[], observe: [] as number[] };
  for (let round = 0; round < rounds + 2; round++) {
    for (const kind of ['act', 'observe'] as const) {
      const t = performance.now();
      await calls[kind]();
      if (round >= 2) times[kind].push(performance.now() - t); // two warm-up rounds
    }
  }
  rows.push([name, median(times.act), median(times.observe)]);
}

async function overMcp(name: string, connect: () => Promise<Connection>): Promise<void> {
  const { client, close } = await connect();
  await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name: tool, arguments: args });
    if (result.isError) throw new Error(`${name} ${tool}: ${JSON.stringify(result.content)}`);
  };
  await measure(name, { act: () => call('act', { action: 'click Go' }), observe: () => call('observe', { instruction: 'the Go button' }) });
  await client.callTool({ name: 'end', arguments: {} });
  await close();
}

async function overHttp(): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}/v1/sessions${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ data: { sessionId: string } }>;
  };
  const id = (await post('/start', { modelName: 'builtin/offline' })).data.sessionId;
  await post(`/${id}/navigate`, { url: fixtures.url('forms.html') });
  await measure('HTTP API (reference)', { act: () => post(`/${id}/act`, { input: 'click Go' }), observe: () => post(`/${id}/observe`, { instruction: 'the Go button' }) });
  await post(`/${id}/end`, {});
}

await overHttp();
for (const era of ['legacy', 'modern'] as const) {
  const revision = era === 'legacy' ? '2025-11-25' : '2026-07-28';
  await overMcp(`stdio ${revision}`, () => connectStdio(era, [], env));
  await overMcp(`self-hosted HTTP ${revision}`, () => connectHttp(selfHosted.url, era));
  await overMcp(`hosted /mcp ${revision}`, () => connectHttp(`${server.url}/mcp`, era));
}

await selfHosted.stop();
await server.close();
await fixtures.close();

console.log(`| transport | act "click Go" median ms | observe median ms |  (n=${rounds} each, 2 warm-up rounds)`);
console.log('|---|---|---|');
for (const [name, act, observe] of rows) console.log(`| ${name} | ${act.toFixed(1)} | ${observe.toFixed(1)} |`);
