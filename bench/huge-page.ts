// What one read of a huge page costs the server's event loop (a page of N buttons built in the page,
// test/fixtures/huge-page.html): observe and extract without an instruction, an offline NL act and an observe
// with an instruction, each over HTTP on a real server process; per read the CPU of the server's main thread
// (/proc/<pid>/task/<pid>/stat), of the whole process, the largest event-loop delay /metrics reports, and the
// answer's size. Each kind of read runs once on a small page first (loading its code is not the page's cost).
// Run: npx tsx bench/huge-page.ts [buttons] [rounds] [checkout]   (checkout: another tree to run, its node_modules linked)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startFixtureServer } from '../test/support/fixture-server.js';
import { startDeckhandProcess } from './support/deckhand-process.js';

const BUTTONS = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const ROOT = process.argv[4] ? path.resolve(process.argv[4]) : undefined;

const fixtures = await startFixtureServer();
const server = await startDeckhandProcess({}, { root: ROOT });
const ticks = (file: string) => {
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const mainThread = () => ticks(`/proc/${server.pid}/task/${server.pid}/stat`);
const wholeProcess = () => ticks(`/proc/${server.pid}/stat`);
const lagMaxMs = async () => Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(await (await fetch(`${server.url}/metrics`)).text())![1]) * 1000;
const start = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } };

try {
  const { sessionId: small } = await server.post('/start', start);
  await server.post(`/${small}/navigate`, { url: fixtures.url('forms.html') });
  for (const [operation, body] of [['observe', {}], ['extract', {}], ['act', { input: 'click Go' }], ['observe', { instruction: 'the Go button' }]] as const) await server.post(`/${small}/${operation}`, body);
  const { sessionId: huge } = await server.post('/start', start);
  await server.post(`/${huge}/navigate`, { url: fixtures.url(`huge-page.html?n=${BUTTONS}`) });

  console.log(`| ${BUTTONS.toLocaleString('en-US')} buttons${ROOT ? ` (${ROOT})` : ''} | main thread CPU ms | process CPU ms | largest event-loop delay ms | answer chars |`);
  console.log('|---|---:|---:|---:|---:|');
  for (let round = 0; round < ROUNDS; round++) {
    const reads: Array<[string, string, object]> = [
      ['observe', 'observe', {}],
      ['extract', 'extract', {}],
      ['act (NL)', 'act', { input: `click Button ${BUTTONS - 1 - round}` }],
      ['observe (instruction)', 'observe', { instruction: `the Button ${Math.floor(BUTTONS / 2) + round}` }],
    ];
    for (const [name, operation, body] of reads) {
      await lagMaxMs();
      const [main0, all0] = [mainThread(), wholeProcess()];
      const answer = await server.post(`/${huge}/${operation}`, body);
      const [main1, all1] = [mainThread(), wholeProcess()];
      console.log(`| ${name} | ${main1 - main0} | ${all1 - all0} | ${(await lagMaxMs()).toFixed(0)} | ${JSON.stringify(answer).length} |`);
    }
  }
} finally {
  await server.close();
  await fixtures.close();
}
