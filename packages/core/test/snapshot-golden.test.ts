// The snapshot of every grounding page and of the fixture pages with frames, shadow roots and forms,
// byte for byte as recorded in snapshot-golden/ (outline, element table, token count). A change to
// the walker that changes what a model reads fails here; one that means to re-records with
// `npx vitest run --project unit packages/core/test/snapshot-golden.test.ts -u`.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHADOW_HOOK_SCRIPT } from '../src/browser/page-hooks/shadow-hook.js';
import { captureSnapshot, type PageSnapshot } from '../src/snapshot/index.js';
import { startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server.js';

const CHROMIUM = process.env.DECKHAND_CHROMIUM ?? '/usr/bin/chromium-headless-shell';
// --site-per-process: the cross-origin frame of cross-iframe.html must be an out-of-process frame, as in a server's browser.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--site-per-process'];
const here = path.dirname(fileURLToPath(import.meta.url));
const GROUNDING = path.resolve(here, '../../../test/grounding/pages');
const GROUNDING_PAGES = readdirSync(GROUNDING).filter((f) => f.endsWith('.html'));
const FIXTURE_PAGES = ['forms.html', 'iframe.html', 'cross-iframe.html', 'shadow.html', 'selectors.html', 'checkboxes.html', 'select.html', 'long-list.html', 'sanitising-controls.html', 'note-form.html', 'coordinates.html', 'index.html'];

let browser: Browser;
let context: BrowserContext;
let grounding: FixtureServer;
let fixtures: FixtureServer;

beforeAll(async () => {
  [grounding, fixtures, browser] = await Promise.all([startFixtureServer(`${GROUNDING}/`), startFixtureServer(), chromium.launch({ executablePath: CHROMIUM, args: ARGS })]);
  context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([grounding?.close(), fixtures?.close()]);
});

/** The snapshot as text, with the servers' ports (which change each run) named. */
function recorded(snap: PageSnapshot, servers: FixtureServer): string {
  const elements = JSON.stringify([...snap.elements.entries()], null, 1);
  const whole = `${snap.text}\n--- truncated: ${snap.truncated}, tokens: ${snap.tokens}, url: ${snap.url}\n${elements}\n`;
  return whole.replaceAll(servers.origin, 'http://ORIGIN').replaceAll(servers.crossOrigin, 'http://CROSS-ORIGIN');
}

async function snapshotOf(servers: FixtureServer, page: string): Promise<string> {
  const tab = await context.newPage();
  try {
    await tab.goto(servers.url(page), { waitUntil: 'load' });
    // With the controls' surroundings, as a snapshot serving an instruction reads them: the whole walk is recorded.
    return recorded(await captureSnapshot(tab, { context: true }), servers);
  } finally {
    await tab.close();
  }
}

describe('the snapshot is byte-identical to the recorded one', () => {
  it.each(GROUNDING_PAGES)('grounding page %s', async (page) => {
    await expect(await snapshotOf(grounding, page)).toMatchFileSnapshot(`snapshot-golden/grounding-${page}.txt`);
  });
  it.each(FIXTURE_PAGES)('fixture page %s', async (page) => {
    await expect(await snapshotOf(fixtures, page)).toMatchFileSnapshot(`snapshot-golden/fixture-${page}.txt`);
  });
});
