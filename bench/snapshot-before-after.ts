// The snapshot walk now against an earlier revision's, side by side in one run: both captureSnapshot
// functions on the same tabs of the bench pages (shared/bench/gen-pages.mjs), interleaved in a random
// order each round with a random pause (up to a frame) before each call, so a shared machine's load
// falls on both alike. Rows: each earlier revision, now, and now reading controls' surroundings (what a
// snapshot serving an instruction reads). The default revision is the walk before the listener hook.
// Run: npx tsx bench/snapshot-before-after.ts [rounds] [revision…]   (env GEN_PAGES)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { findChromium } from '../packages/core/src/index.js';
import { SHADOW_HOOK_SCRIPT } from '../packages/core/src/browser/page-hooks/shadow-hook.js';
import { captureSnapshot } from '../packages/core/src/snapshot/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.argv[2] ?? 30);
const REVISIONS = process.argv.length > 3 ? process.argv.slice(3) : ['eb249e3'];
const WARMUP = 3;
const GEN_PAGES = process.env.GEN_PAGES ?? path.resolve(here, '../../shared/bench/gen-pages.mjs');
const PAGES = ['small', 'medium', 'large'];

const earlierDirs = REVISIONS.map(() => fs.mkdtempSync(path.join(here, '.revision-')));
const pagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deckhand-bench-'));
const server = http.createServer((req, res) => {
  const file = path.join(pagesDir, path.normalize((req.url ?? '/').split('?')[0]!));
  if (!file.startsWith(pagesDir) || !fs.existsSync(file)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(file));
});
const browser = await chromium.launch({ executablePath: findChromium(true), args: ['--no-sandbox'] });
type Capture = (page: Page, options?: { tokenBudget?: number; context?: boolean }) => Promise<{ text: string }>;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const rows: string[] = [];
try {
  // The earlier revision's core sources, beside ours so that its imports resolve to the same node_modules.
  const earlier: Capture[] = [];
  for (const [i, revision] of REVISIONS.entries()) {
    execFileSync('sh', ['-c', `git archive ${revision} packages/core/src | tar -x -C ${earlierDirs[i]}`], { cwd: path.resolve(here, '..') });
    earlier.push((await import(path.join(earlierDirs[i]!, 'packages/core/src/snapshot/index.ts'))).captureSnapshot as Capture);
  }
  execFileSync(process.execPath, [GEN_PAGES, pagesDir], { stdio: 'ignore' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const context = await browser.newContext();
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
  for (const name of PAGES) {
    const page = await context.newPage();
    await page.goto(`${base}/${name}.html`, { waitUntil: 'load' });
    const tools: Array<[string, () => Promise<{ text: string }>]> = [
      ...REVISIONS.map((revision, i): [string, () => Promise<{ text: string }>] => [`${revision} captureSnapshot`, () => earlier[i]!(page, { tokenBudget: Infinity })]),
      ['now: captureSnapshot', () => captureSnapshot(page, { tokenBudget: Infinity })],
      ['now: captureSnapshot, surroundings read (serving an instruction)', () => captureSnapshot(page, { tokenBudget: Infinity, context: true })],
    ];
    const times = tools.map((): number[] => []);
    const chars = tools.map(() => 0);
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const i of tools.map((_, k) => k).sort(() => Math.random() - 0.5)) {
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * (1000 / 60)));
        const t0 = performance.now();
        chars[i] = (await tools[i]![1]()).text.length;
        if (round >= WARMUP) times[i]!.push(performance.now() - t0);
      }
    }
    for (const [i, [tool]] of tools.entries()) rows.push(`| ${name} | ${tool} | ${quantile(times[i]!, 0.5).toFixed(1)} | ${quantile(times[i]!, 0.95).toFixed(1)} | ${chars[i]} |`);
    const now = REVISIONS.length;
    for (const [i, revision] of REVISIONS.entries()) {
      const ratio = (q: number) => (quantile(times[now]!, q) / quantile(times[i]!, q)).toFixed(2);
      rows.push(`| ${name} | now / ${revision} | ${ratio(0.5)}× | ${ratio(0.95)}× | |`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(pagesDir, { recursive: true, force: true });
  for (const dir of earlierDirs) fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`| page | ${ROUNDS} rounds after ${WARMUP} warm-up, interleaved in random order, random phase | median ms | p95 ms | chars |`);
console.log('|---|---|---:|---:|---:|');
for (const row of rows) console.log(row);
