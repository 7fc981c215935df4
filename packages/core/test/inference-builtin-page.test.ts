// The built-in model on a snapshot of a real page, so its outline reading stays in step with captureSnapshot.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInference } from '../src/inference/create-inference.js';
import type { ChosenAction } from '../src/inference/types.js';
import { UsageMeter } from '../src/models/usage.js';
import { captureSnapshot } from '../src/snapshot/index.js';
import type { PageSnapshot } from '../src/snapshot/types.js';

const HTML = `<!doctype html><title>Settings</title>
<h1>Account</h1>
<form aria-label="Login">
  <label>Email <input name="email" placeholder="you@example.com"></label>
  <label>Password <input type="password" name="pw"></label>
  <label><input type="checkbox"> Remember me</label>
  <label>Country <select><option>France</option><option>Germany</option><option>United States</option></select></label>
  <button type="button">Sign in</button>
</form>
<table><tr><th>Name</th><th>Email</th><th></th></tr>
  <tr><td>Alice</td><td>alice@example.com</td><td><button>Delete</button></td></tr>
  <tr><td>Bob</td><td>bob@example.com</td><td><button>Delete</button></td></tr>
</table>
<p>Price: $19.99</p>
<a href="/docs">Read the docs</a>`;

let browser: Browser;
let page: Page;
let snapshot: PageSnapshot;
const builtin = createInference('builtin/offline', { env: {} });

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium-headless-shell',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  page = await browser.newPage();
  // Served from a routed origin (no network) so relative links resolve as on a real site.
  await page.route('http://deckhand.test/**', (route) => route.fulfill({ body: HTML, contentType: 'text/html' }));
  await page.goto('http://deckhand.test/settings');
  // With the controls' surroundings, as the snapshot of an act (it serves an instruction) has them.
  snapshot = await captureSnapshot(page, { context: true });
});
afterAll(() => browser?.close());

async function target(instruction: string) {
  const result = await builtin.chooseAction({ instruction, snapshot, variables: [{ name: 'email' }], signal: new AbortController().signal, usage: new UsageMeter() });
  if ('failure' in result) return result;
  const action = result as ChosenAction;
  const element = snapshot.elements.get(action.elementId);
  return { method: action.method, arguments: action.arguments, role: element?.role, name: element?.name };
}

describe('built-in model on a captured page', () => {
  it.each([
    ['click the Sign in button', { method: 'click', role: 'button', name: 'Sign in' }],
    ['type %email% into the Email field', { method: 'fill', arguments: ['%email%'], role: 'textbox', name: 'Email' }],
    ['select "Germany" from the Country dropdown', { method: 'selectOptionFromDropdown', arguments: ['Germany'], name: 'Country' }],
    ['check Remember me', { method: 'check', role: 'checkbox', name: 'Remember me' }],
    ['click the Delete button for Bob', { method: 'click', role: 'button', name: 'Delete' }],
  ])('%s', async (instruction, expected) => {
    expect(await target(instruction)).toMatchObject(expected);
  });

  it('reports ambiguity and unknown targets', async () => {
    expect(await target('click Delete')).toMatchObject({ failure: expect.stringMatching(/ambiguous/) });
    expect(await target('click the Checkout button')).toMatchObject({ failure: expect.stringMatching(/No button on the page matches/) });
  });

  it('extracts labelled values and links', async () => {
    const result = await builtin.extract({
      schema: { type: 'object', properties: { price: { type: 'number' }, docsUrl: { type: 'string', format: 'uri' } }, required: ['price'] },
      snapshot,
      signal: new AbortController().signal,
      usage: new UsageMeter(),
    });
    expect(result).toEqual({ price: 19.99, docsUrl: 'http://deckhand.test/docs' });
  });
});
