// What Deckhand's link between Playwright and Chromium (the browser's pipe, the CDP mux, and before
// issue 22 a websocket on a unix socket) costs the server's CPU: the same Playwright calls on a Chromium
// launched by Playwright itself (its own pipe, the floor) and on one launched by Deckhand's
// `launchChromium`, in this process, interleaved; with --baseline, also the `launchChromium` of another
// checkout. CPU of this process (process.cpuUsage), which holds Playwright and the mux as a server does.
//
// Run: npx tsx bench/playwright-link.ts [--ops 40] [--rounds 6] [--baseline DIR]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadCoreConfigFromEnv } from '../packages/core/src/config.js';
import { launchChromium } from '../packages/core/src/browser/chromium/launch-chromium.js';
import { ALLOW_FIXTURES, startFixtureServer } from '../test/support/fixture-server.js';
import { CHROMIUM, CHROMIUM_ARGS } from './support/stagehand-local.js';

const { values: flags } = parseArgs({ options: { ops: { type: 'string', default: '40' }, rounds: { type: 'string', default: '6' }, baseline: { type: 'string' } } });
const OPS = Number(flags.ops);
const ROUNDS = Number(flags.rounds);
const fixtures = await startFixtureServer();
const PAGE = fixtures.url('forms.html');
const config = loadCoreConfigFromEnv(ALLOW_FIXTURES);

interface Link {
  name: string;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

async function onPage(name: string, browser: Browser, close: () => Promise<void>): Promise<Link> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(PAGE);
  return { name, browser, page, close };
}

type Launch = typeof launchChromium;
async function deckhandLink(name: string, launch: Launch): Promise<Link> {
  // No startup page: the pages live in contexts, as in a project's shared browser.
  const launched = await launch({ headless: true, executablePath: CHROMIUM }, { width: 1280, height: 720 }, config, false);
  return onPage(name, launched.browser, () => launched.close());
}

const raw = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const links = [await onPage("Playwright's own pipe", raw, () => raw.close()), await deckhandLink('Deckhand, this build', launchChromium)];
if (flags.baseline) {
  const other = (await import(path.resolve(flags.baseline, 'packages/core/src/browser/chromium/launch-chromium.ts'))) as { launchChromium: Launch };
  links.push(await deckhandLink('Deckhand, baseline', other.launchChromium));
}

const OPERATIONS: Record<string, (link: Link) => Promise<unknown>> = {
  'page.click': (l) => l.page.click('#go'),
  'page.screenshot (the replay picture)': (l) => l.page.screenshot({ type: 'jpeg', quality: 50, scale: 'css', animations: 'allow', caret: 'initial' }),
  'page.evaluate': (l) => l.page.evaluate(() => document.title),
  'context, page, goto, close': async (l) => {
    const context = await l.browser.newContext();
    await (await context.newPage()).goto(PAGE);
    await context.close();
  },
};

const cpu = new Map<string, number>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [op, run] of Object.entries(OPERATIONS)) {
    // Each round another link goes first, so the machine's load falls on all alike.
    for (let i = 0; i < links.length; i++) {
      const link = links[(i + round) % links.length]!;
      await run(link);
      const before = process.cpuUsage();
      for (let n = 0; n < OPS; n++) await run(link);
      const used = process.cpuUsage(before);
      cpu.set(`${op}\0${link.name}`, (cpu.get(`${op}\0${link.name}`) ?? 0) + (used.user + used.system) / 1000);
    }
  }
}

const perOp = (op: string, link: Link) => cpu.get(`${op}\0${link.name}`)! / (OPS * ROUNDS);
const lines = [
  `| operation | ${links.map((l) => `${l.name}: CPU ms/op`).join(' | ')} | ${links.slice(1).map((l) => `${l.name}: link's own ms/op`).join(' | ')} |`,
  `|---|${links.map(() => '---|').join('')}${links.slice(1).map(() => '---|').join('')}`,
  ...Object.keys(OPERATIONS).map(
    (op) => `| ${op} | ${links.map((l) => perOp(op, l).toFixed(2)).join(' | ')} | ${links.slice(1).map((l) => (perOp(op, l) - perOp(op, links[0]!)).toFixed(2)).join(' | ')} |`,
  ),
  '',
  `${OPS * ROUNDS} of each per link, in ${ROUNDS} rounds; "link's own" is the CPU above Playwright's own pipe for the same call.`,
];
console.log(lines.join('\n'));
for (const link of links) await link.close();
await fixtures.close();
