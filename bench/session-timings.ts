// Times the core's session lifecycle against the fixture pages: start (launch), a deterministic
// click act, end. Run: npx tsx bench/session-timings.ts [rounds]
import { createSessionManager, DEFAULT_CORE_CONFIG } from '../packages/core/src/index.js';
import { startFixtureServer } from '../test/support/fixture-server.js';

const rounds = Number(process.argv[2] ?? 5);
const fixtures = await startFixtureServer();
const manager = createSessionManager({ ...DEFAULT_CORE_CONFIG });
const ctx = { signal: new AbortController().signal };
const timings: Record<'start' | 'click' | 'end', number[]> = { start: [], click: [], end: [] };

for (let round = 0; round < rounds; round++) {
  let t = performance.now();
  const session = await manager.start('bench', { modelName: 'builtin/offline' });
  timings.start.push(performance.now() - t);
  await session.navigate({ url: fixtures.url('/forms.html') }, ctx);
  t = performance.now();
  const result = await session.act({ input: { selector: '#go', method: 'click' } }, ctx);
  timings.click.push(performance.now() - t);
  if (!result.success) throw new Error(result.message);
  t = performance.now();
  await manager.end('bench', session.id);
  timings.end.push(performance.now() - t);
}

await fixtures.close();
for (const [name, values] of Object.entries(timings)) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`${name.padEnd(6)} median ${median.toFixed(0)} ms  (min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}, n=${values.length})`);
}
