// What the agent loop costs beyond its model: runs of N steps against the loopback model server
// (which answers at once), on the idle forms fixture, over the HTTP-free core. Per step: the run's
// wall time minus the model's inference time, divided by the steps; for think (the loop alone: a
// model turn's request building, tool dispatch, log line) and observe (plus a page outline).
// Run: npx tsx bench/agent-loop.ts [rounds] [steps]
import { createSessionManager, DEFAULT_CORE_CONFIG } from '../packages/core/src/index.js';
import { startFixtureServer } from '../test/support/fixture-server.js';
import { startModelServer, type ScriptedReply } from '../test/support/model-server.js';

const rounds = Number(process.argv[2] ?? 5);
const steps = Number(process.argv[3] ?? 10);
const fixtures = await startFixtureServer();
const model = await startModelServer();
const manager = createSessionManager({ ...DEFAULT_CORE_CONFIG });
const ctx = { signal: new AbortController().signal };
const session = await manager.start('bench', { modelName: 'builtin/offline' });
await session.navigate({ url: fixtures.url('/forms.html') }, ctx);
const agentModel = { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-bench', baseURL: `${model.url}/v1` };

const rows: string[] = [];
for (const [tool, args] of [['think', { thought: 'next' }], ['observe', {}]] as const) {
  const perStep: number[] = [];
  const inputPerStep: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const script: ScriptedReply[] = Array.from({ length: steps - 1 }, () => ({ toolCalls: [{ name: tool, args }] }));
    model.script([...script, { toolCalls: [{ name: 'done', args: { success: true, message: 'ok' } }] }]);
    model.requests.length = 0;
    const started = performance.now();
    const result = await session.agentExecute({ agentConfig: { model: agentModel }, executeOptions: { instruction: 'bench', maxSteps: steps } }, ctx);
    const wall = performance.now() - started;
    if (!result.success) throw new Error(result.message);
    perStep.push((wall - result.usage!.inference_time_ms) / steps);
    inputPerStep.push(model.requests.reduce((sum, r) => sum + r.raw.length, 0) / steps);
  }
  const sorted = [...perStep].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const chars = [...inputPerStep].sort((a, b) => a - b)[Math.floor(inputPerStep.length / 2)]!;
  rows.push(`| ${tool} | ${steps} | ${median.toFixed(1)} ms (min ${sorted[0]!.toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)}) | ${(chars / 1000).toFixed(1)} k |`);
}

await manager.end('bench', session.id);
await Promise.all([fixtures.close(), model.close()]);
console.log(`| tool per step | steps | loop overhead per step (median of ${rounds}) | request characters per step |`);
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
