import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { findChromium } from '../packages/core/src/index.js';
import { SHADOW_HOOK_SCRIPT } from '../packages/core/src/browser/page-hooks/shadow-hook.js';
import { captureSnapshot } from '../packages/core/src/snapshot/index.js';
import { startServer } from '../packages/server/src/index.js';
import { startFixtureServer } from '../test/support/fixture-server.js';
const require = createRequire(import.meta.url);
const debug = require(require.resolve('playwright-core').replace(/index\.js$/, 'lib/utilsBundle.js')).debug;
const ROUNDS = Number(process.argv[2] ?? 30);
const PAGE = process.argv[3] ?? 'forms.html';
let marks: Array<[string, number]> = [];
let on = false;
(globalThis as any).__mark = (name: string) => on && marks.push([name, performance.now()]);
const fixtures = await startFixtureServer();
const server = await startServer({ HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '', ...(process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {}) }, { writeLog: () => {} });
const browser = await chromium.launch({ executablePath: findChromium(true), args: ['--no-sandbox'] });
async function call(path: string, body: unknown): Promise<any> {
  const response = await fetch(`${server.url}/v1/sessions/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stream-response': 'false' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok || json.success === false) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json.data;
}
const context = await browser.newContext();
await context.addInitScript(SHADOW_HOOK_SCRIPT);
const page = await context.newPage();
await page.goto(fixtures.url(PAGE));
const { sessionId: id, cdpUrl } = await call('start', { modelName: 'builtin/offline', enableCaching: false, browser: { type: 'local', launchOptions: { headless: true } } });
await call(`${id}/navigate`, { url: fixtures.url(PAGE) });
const remote = await chromium.connectOverCDP(cdpUrl);
const rpage = remote.contexts()[0]!.pages()[0]!;
console.log('remote page', rpage.url());
const rsnaps: number[] = [];
const stages = new Map<string, number[]>();
const totals: number[] = [];
const snaps: number[] = [];
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
for (let r = 0; r < ROUNDS + 3; r++) {
  await new Promise((res) => setTimeout(res, 100 + Math.random() * 16.7));
  marks = [];
  on = true;
  const t0 = performance.now();
  const data = await call(`${id}/observe`, {});
  const t1 = performance.now();
  on = false;
  if (r === 0) console.log(JSON.stringify(data.result.slice(0, 2)));
  await new Promise((res) => setTimeout(res, 100 + Math.random() * 16.7));
  const s0 = performance.now();
  await captureSnapshot(page);
  const s1 = performance.now();
  await new Promise((res) => setTimeout(res, 100 + Math.random() * 16.7));
  const q0 = performance.now();
  await captureSnapshot(rpage);
  rsnaps.push(performance.now() - q0);
  if (r < 3) continue;
  totals.push(t1 - t0);
  snaps.push(s1 - s0);
  let prev = t0;
  for (const [name, t] of [...marks, ['client', t1] as [string, number]]) {
    (stages.get(name) ?? stages.set(name, []).get(name)!).push(t - prev);
    prev = t;
  }
}
console.log('snapshot on the session page (over relay)', med(rsnaps).toFixed(2));
console.log('observe total', med(totals).toFixed(2), 'snapshot alone', med(snaps).toFixed(2), 'ratio', (med(totals) / med(snaps)).toFixed(2));
for (const [name, v] of stages) console.log(name.padEnd(10), med(v).toFixed(2));
// CDP commands per observe
let lines: string[] = [];
debug.log = (s: string) => lines.push(s);
debug.enable('pw:protocol');
for (let i = 0; i < 3; i++) {
  lines = [];
  await call(`${id}/observe`, {});
  const sends = lines.filter((l) => l.includes('SEND'));
  console.log('CDP sends', sends.length, sends.map((l) => /"method":"([^"]+)"/.exec(l)?.[1]).join(' '));
}
debug.disable();
await call(`${id}/end`, {});
await browser.close();
await server.close();
await fixtures.close();
