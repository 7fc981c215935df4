// Snapshot benchmark: Deckhand's captureSnapshot against Stagehand's page.snapshot(), Playwright's
// AI aria snapshot and the raw CDP Accessibility.getFullAXTree (the floor of the CDP route), on the
// pages of shared/bench/gen-pages.mjs served on loopback, all on the same Chromium binary.
// Run: npm --prefix bench install && npm --prefix bench run snapshot   (env: RUNS, CHROMIUM, GEN_PAGES)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { chromium, type Page } from 'playwright-core';
import { SHADOW_HOOK_SCRIPT } from '../packages/core/src/browser/page-hooks/shadow-hook.js';
import { captureSnapshot, DEFAULT_TOKEN_BUDGET } from '../packages/core/src/snapshot/index.js';
import { CHROMIUM, CHROMIUM_ARGS, localStagehand } from './support/stagehand-local.js';
import { median } from './support/stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.RUNS ?? 7);
const WARMUP = 3;
const GEN_PAGES = process.env.GEN_PAGES ?? path.resolve(here, '../../shared/bench/gen-pages.mjs');
const PAGES = ['small', 'medium', 'large'];

interface Row {
  page: string;
  tool: string;
  ms: number | null;
  chars: number | null;
  tokens: number | null;
  note?: string;
}

/** Times `run` RUNS times after WARMUP calls (JIT on both sides of CDP); the output of the last call is measured. */
async function measure(page: string, tool: string, run: () => Promise<string | null>): Promise<Row> {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  let out: string | null = null;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    out = await run();
    times.push(performance.now() - t0);
  }
  const row: Row = { page, tool, ms: median(times), chars: out?.length ?? null, tokens: out === null ? null : countTokens(out) };
  console.error(`${page.padEnd(7)} ${tool.padEnd(34)} ${row.ms!.toFixed(1).padStart(8)} ms ${String(row.chars ?? '—').padStart(8)} chars ${String(row.tokens ?? '—').padStart(7)} tokens`);
  return row;
}

function serve(dir: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.normalize((req.url ?? '/').split('?')[0]!));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function playwrightRows(base: string): Promise<Row[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext();
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
  const rows: Row[] = [];
  const fresh = async (name: string): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(`${base}/${name}.html`, { waitUntil: 'load' });
    return page;
  };
  for (const name of PAGES) {
    let page = await fresh(name);
    rows.push(await measure(name, 'deckhand captureSnapshot (no budget)', async () => (await captureSnapshot(page, { tokenBudget: Infinity })).text));
    const full = await captureSnapshot(page, { tokenBudget: Infinity });
    rows[rows.length - 1]!.note = `${full.elements.size} ids; estimateTokens ${full.tokens}`;
    rows.push(await measure(name, `deckhand captureSnapshot (default ${DEFAULT_TOKEN_BUDGET / 1000}k budget)`, async () => (await captureSnapshot(page)).text));
    await page.close();

    page = await fresh(name);
    rows.push(await measure(name, "playwright ariaSnapshot({mode:'ai'})", () => page.ariaSnapshot({ mode: 'ai' })));
    await page.close();

    page = await fresh(name);
    const cdp = await context.newCDPSession(page);
    rows.push(await measure(name, 'CDP Accessibility.getFullAXTree (raw)', async () => {
      await cdp.send('Accessibility.getFullAXTree');
      return null;
    }));
    await cdp.detach();
    await page.close();
  }
  await browser.close();
  return rows;
}

async function stagehandRows(base: string): Promise<Row[]> {
  // snapshot() needs no model.
  const stagehand = localStagehand();
  await stagehand.init();
  const rows: Row[] = [];
  try {
    for (const name of PAGES) {
      const page = await stagehand.context.newPage(`${base}/${name}.html`);
      await page.waitForLoadState('load');
      rows.push(await measure(name, 'stagehand page.snapshot()', async () => (await page.snapshot()).formattedTree));
      await page.close();
    }
  } finally {
    await stagehand.close();
  }
  return rows;
}

function table(rows: Row[]): string {
  const fmt = (n: number | null, digits = 0) => (n === null ? '—' : n.toFixed(digits));
  const lines = ['| page | tool | median ms | chars | o200k tokens | tokens vs Stagehand | note |', '|---|---|---:|---:|---:|---:|---|'];
  for (const name of PAGES) {
    const stagehand = rows.find((r) => r.page === name && r.tool.startsWith('stagehand'));
    for (const r of rows.filter((x) => x.page === name)) {
      const ratio = stagehand?.tokens && r.tokens !== null ? `${Math.round((100 * r.tokens) / stagehand.tokens)}%` : '—';
      lines.push(`| ${r.page} | ${r.tool} | ${fmt(r.ms, 1)} | ${fmt(r.chars)} | ${fmt(r.tokens)} | ${ratio} | ${r.note ?? ''} |`);
    }
  }
  return lines.join('\n');
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deckhand-bench-'));
execFileSync(process.execPath, [GEN_PAGES, dir], { stdio: 'ignore' });
const server = await serve(dir);
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const version = execFileSync(CHROMIUM, ['--version']).toString().trim();
console.error(`${version}; ${RUNS} runs per tool and page (after ${WARMUP} warm-up calls), fresh tab per tool and page`);

const rows = await playwrightRows(base);
try {
  rows.push(...(await stagehandRows(base)));
} catch (error) {
  const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
  for (const name of PAGES) rows.push({ page: name, tool: 'stagehand page.snapshot()', ms: null, chars: null, tokens: null, note: `did not run: ${why}` });
}
server.close();
fs.rmSync(dir, { recursive: true, force: true });

const md = `# Snapshot benchmark

Command: \`npm --prefix bench run snapshot\` (RUNS=${RUNS}); ${version}, ${os.cpus().length} cores; ${new Date().toISOString().slice(0, 10)}.
Median of ${RUNS} calls after ${WARMUP} warm-up calls, a fresh tab per tool and page; tokens counted with o200k (gpt-tokenizer).
"No budget" is the whole outline; the default budget cuts larger pages (viewport first) and says so.

${table(rows)}
`;
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'snapshot.md'), md);
console.log(md);
