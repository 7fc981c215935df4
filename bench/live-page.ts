// The client and the live page: Deckhand.init() time in each mode, and while one person watches a
// session's live page, its frame rate and the CPU it adds (this process, which is the server, and the
// session's browser with its child processes), against the same session unwatched; how long debugUrl
// takes to a first answer on the page (redirect, page websocket, Runtime.evaluate); and what ending a
// watched session costs (its last picture) against an unwatched one.
// Also writes docs/live-page.png, the page as a watcher sees it.
// Run: npx tsx bench/live-page.ts [seconds per phase]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { WebSocket } from 'ws';
import { findChromium } from '../packages/core/src/index.js';
import { startServer } from '../packages/server/src/index.js';
import { Deckhand } from '../packages/client/src/index.js';

const seconds = Number(process.argv[2] ?? 10);
const server = await startServer({ HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '', DECKHAND_API_KEYS: 'bench-key:bench' });
const options = { env: 'BROWSERBASE', apiKey: 'bench-key', baseURL: server.url, verbose: 0 } as const;

const closeTimes: number[] = [];
/** Five init() calls of fresh clients, sorted (each closed again; API-mode close times are kept, unwatched). */
async function initTimes(make: () => Deckhand, keepClose = false): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const client = make();
    await client.init();
    times.push(performance.now() - t);
    const c = performance.now();
    await client.close();
    if (keepClose) closeTimes.push(performance.now() - c);
  }
  return times.sort((a, b) => a - b);
}
const inits = await initTimes(() => new Deckhand(options), true);
const localInits = await initTimes(() => new Deckhand({ env: 'LOCAL', verbose: 0, enableCaching: false }));
const attachedInits = await initTimes(() => new Deckhand({ ...options, useAPI: false }));

const client = new Deckhand(options);
const { sessionUrl, debugUrl } = await client.init();
await client.goto('data:text/html,<h1>Deckhand live page</h1><form><label>Name <input id=n></label><button type=button onclick="document.body.append(\'clicked \')">Go</button></form>');
await client.act('type "Ada" into Name');
await client.act('click Go');

/** CPU seconds of a process and all its descendants, from /proc (clock ticks of 10 ms). */
function treeCpu(root: number): number {
  const rows = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        // Fields after the parenthesised command: state ppid … utime(14) stime(15), counted from 1.
        const after = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return [[Number(pid), Number(after[1]), (Number(after[11]) + Number(after[12])) / 100] as const];
      } catch {
        return [];
      }
    });
  const inTree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of rows) if (inTree.has(ppid) && !inTree.has(pid)) inTree.add(pid), (grew = true);
  }
  return rows.filter(([pid]) => inTree.has(pid)).reduce((sum, [, , cpu]) => sum + cpu, 0);
}

// The session's browser is the one child Chromium of this process other than the viewer.
const browsers = () => execFileSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
const sessionBrowsers = browsers();

async function phase(run: () => Promise<number>) {
  const cpu0 = process.cpuUsage();
  const tree0 = sessionBrowsers.reduce((s, pid) => s + treeCpu(pid), 0);
  const frames = await run();
  const node = process.cpuUsage(cpu0);
  const tree = sessionBrowsers.reduce((s, pid) => s + treeCpu(pid), 0) - tree0;
  return { frames, serverCpu: (node.user + node.system) / 1e6 / seconds, browserCpu: tree / seconds };
}

const idle = await phase(async () => {
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return 0;
});
const viewer = await chromium.launch({ executablePath: findChromium(true), headless: true });
const page = await viewer.newPage({ viewport: { width: 1400, height: 760 } });
await page.goto(sessionUrl);
await page.waitForTimeout(2000);
await page.screenshot({ path: new URL('../docs/live-page.png', import.meta.url).pathname });
const watched = await phase(async () => {
  let frames = 0;
  const count = (response: { url(): string }) => response.url().includes('/live/frame') && frames++;
  page.on('response', count);
  await page.waitForTimeout(seconds * 1000);
  page.off('response', count);
  return frames;
});

/** debugUrl to a first answer from the session's page: the redirect, the page websocket, one Runtime.evaluate. */
async function devtoolsFirstAnswer(): Promise<number> {
  const t = performance.now();
  const redirect = await fetch(debugUrl, { redirect: 'manual' });
  const socket = new WebSocket(`ws://${new URL(redirect.headers.get('location')!).searchParams.get('ws')}`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  await new Promise((resolve) => {
    socket.on('message', (data: Buffer) => JSON.parse(data.toString()).id === 1 && resolve(undefined));
    socket.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: 'location.href' } }));
  });
  const ms = performance.now() - t;
  socket.close();
  return ms;
}
const devtools: number[] = [];
for (let i = 0; i < 5; i++) devtools.push(await devtoolsFirstAnswer());
devtools.sort((a, b) => a - b);

const endWatched = performance.now();
await client.close();
const watchedClose = performance.now() - endWatched;
await viewer.close();
await server.close();
closeTimes.sort((a, b) => a - b);

const ms = (n: number) => `${n.toFixed(0)} ms`;
console.log(`| Measure | Value |\n|---|---|`);
console.log(`| Deckhand.init(), API mode, median of 5 (min ${ms(inits[0]!)}, max ${ms(inits.at(-1)!)}) | ${ms(inits[2]!)} |`);
console.log(`| Deckhand.init(), LOCAL mode, median of 5 (min ${ms(localInits[0]!)}, max ${ms(localInits.at(-1)!)}) | ${ms(localInits[2]!)} |`);
console.log(`| Deckhand.init(), BROWSERBASE with useAPI false, median of 5 (min ${ms(attachedInits[0]!)}, max ${ms(attachedInits.at(-1)!)}) | ${ms(attachedInits[2]!)} |`);
console.log(`| live page frame rate | ${(watched.frames / seconds).toFixed(1)} frames/s |`);
console.log(`| server process CPU, unwatched → watched | ${(idle.serverCpu * 100).toFixed(1)} % → ${(watched.serverCpu * 100).toFixed(1)} % of a core |`);
console.log(`| session browser CPU (with children), unwatched → watched | ${(idle.browserCpu * 100).toFixed(1)} % → ${(watched.browserCpu * 100).toFixed(1)} % of a core |`);
console.log(`| debugUrl to a first Runtime.evaluate answer, median of 5 (min ${ms(devtools[0]!)}, max ${ms(devtools.at(-1)!)}) | ${ms(devtools[2]!)} |`);
console.log(`| close() of an unwatched session, API mode, median of 5 (min ${ms(closeTimes[0]!)}, max ${ms(closeTimes.at(-1)!)}) | ${ms(closeTimes[2]!)} |`);
console.log(`| close() of the watched session (takes its last picture) | ${ms(watchedClose)} |`);
