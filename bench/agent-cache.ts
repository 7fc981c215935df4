// Two agent numbers beside bench/agent-loop.ts, against the loopback model server (which answers at
// once) over the HTTP-free core:
// 1. Tokens per step against the size of the page outline: runs of N observe steps on fixture pages
//    of growing size. Each model turn resends the conversation, so what a step costs is the request's
//    growth per step; tokens are the core's estimate (3.0 characters a token, calibrated against
//    o200k by bench/snapshot.ts) of the requests the model server recorded.
// 2. A cached replay against the original run: the same shouldCache run (type a variable into a
//    field, click Save; the model drives, the offline model grounds each act) first as a MISS, then,
//    on the reloaded page, as a HIT.
// Run: npx tsx bench/agent-cache.ts [rounds] [steps]
import { fileURLToPath } from 'node:url';
import { createSessionManager, DEFAULT_CORE_CONFIG } from '../packages/core/src/index.js';
import { estimateTokens } from '../packages/core/src/snapshot/index.js';
import { startFixtureServer } from '../test/support/fixture-server.js';
import { startModelServer, type RecordedRequest, type ScriptedReply } from '../test/support/model-server.js';

const rounds = Number(process.argv[2] ?? 5);
const steps = Number(process.argv[3] ?? 5);
const fixtures = await startFixtureServer();
// The grounding suite's larger pages (a shop, a mail inbox, a settings page) show how a step grows with the page.
const grounding = await startFixtureServer(fileURLToPath(new URL('../test/grounding/pages/', import.meta.url)));
const model = await startModelServer();
const manager = createSessionManager({ ...DEFAULT_CORE_CONFIG });
const session = await manager.start('bench', { modelName: 'builtin/offline' });
const agentModel = { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-bench', baseURL: `${model.url}/v1` };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The outline an observe call handed the model, read back from the next request (OpenAI Responses input). */
function outlineOf(request: RecordedRequest): string {
  const input = (request.body as { input?: Array<{ type?: string; output?: unknown }> }).input ?? [];
  const output = input.find((item) => item.type === 'function_call_output')?.output;
  const text = typeof output === 'string' ? output : JSON.stringify(output ?? '');
  return (JSON.parse(text) as { outline?: string }).outline ?? '';
}

const tokenRows: string[] = [];
const pages: Array<[string, string]> = [
  ...['selectors.html', 'forms.html', 'long-list.html'].map((page): [string, string] => [page, fixtures.url(page)]),
  ...['settings.html', 'mail.html', 'shop.html'].map((page): [string, string] => [`grounding/${page}`, grounding.url(page)]),
];
for (const [page, url] of pages) {
  await session.navigate({ url }, { signal: new AbortController().signal });
  const first: number[] = [];
  const growth: number[] = [];
  const perStep: number[] = [];
  let outline = 0;
  for (let round = 0; round < rounds; round++) {
    const script: ScriptedReply[] = Array.from({ length: steps - 1 }, () => ({ toolCalls: [{ name: 'observe', args: {} }] }));
    model.script([...script, { toolCalls: [{ name: 'done', args: { success: true, message: 'ok' } }] }]);
    model.requests.length = 0;
    const result = await session.agentExecute({ agentConfig: { model: agentModel }, executeOptions: { instruction: 'bench', maxSteps: steps } }, { signal: new AbortController().signal });
    if (!result.success) throw new Error(result.message);
    const tokens = model.requests.map((r) => estimateTokens(r.raw));
    first.push(tokens[0]!);
    growth.push((tokens.at(-1)! - tokens[0]!) / (tokens.length - 1));
    perStep.push(tokens.reduce((a, b) => a + b, 0) / tokens.length);
    outline = estimateTokens(outlineOf(model.requests[1]!));
  }
  tokenRows.push(`| ${page} | ${outline} | ${median(first)} | ${median(growth).toFixed(0)} | ${median(perStep).toFixed(0)} |`);
}

const replayRows: string[] = [];
const missMs: number[] = [];
const hitMs: number[] = [];
let missRequests = 0;
let hitRequests = 0;
for (let round = 0; round < rounds; round++) {
  const body = {
    agentConfig: { model: agentModel, executionModel: 'builtin/offline' },
    executeOptions: { instruction: `Save my name (round ${round})`, variables: { name: 'Ada Lovelace' } },
    shouldCache: true,
  };
  const script: ScriptedReply[] = [
    { toolCalls: [{ name: 'act', args: { action: 'type %name% into the Name field' } }] },
    { toolCalls: [{ name: 'act', args: { action: 'click Save' } }] },
    { toolCalls: [{ name: 'done', args: { success: true, message: 'Saved' } }] },
  ];
  for (const expected of ['MISS', 'HIT'] as const) {
    await session.navigate({ url: fixtures.url('agent-cache.html') }, { signal: new AbortController().signal });
    if (expected === 'MISS') model.script(script);
    model.requests.length = 0;
    let status: string | undefined;
    const started = performance.now();
    const result = await session.agentExecute(body, { signal: new AbortController().signal, onCacheStatus: (s) => (status = s) });
    const wall = performance.now() - started;
    if (!result.success || status !== expected) throw new Error(`expected a successful ${expected}, got ${status}: ${result.message}`);
    (expected === 'MISS' ? missMs : hitMs).push(wall);
    if (expected === 'MISS') missRequests = model.requests.length;
    else hitRequests = model.requests.length;
  }
}
replayRows.push(`| original run (MISS) | ${median(missMs).toFixed(0)} ms (min ${Math.min(...missMs).toFixed(0)}, max ${Math.max(...missMs).toFixed(0)}) | ${missRequests} |`);
replayRows.push(`| cached replay (HIT) | ${median(hitMs).toFixed(0)} ms (min ${Math.min(...hitMs).toFixed(0)}, max ${Math.max(...hitMs).toFixed(0)}) | ${hitRequests} |`);

await manager.end('bench', session.id);
await Promise.all([fixtures.close(), grounding.close(), model.close()]);
console.log(`Tokens per step against the outline (${steps} steps: ${steps - 1} observe + done; median of ${rounds} runs; estimated tokens)\n`);
console.log('| page | outline tokens | first request | growth per observe step | mean request per step |');
console.log('|---|---|---|---|---|');
for (const row of tokenRows) console.log(row);
console.log(`\nCached replay against the original run (agent-cache.html: type a variable, click Save; median of ${rounds})\n`);
console.log('| run | wall time | model requests |');
console.log('|---|---|---|');
for (const row of replayRows) console.log(row);
