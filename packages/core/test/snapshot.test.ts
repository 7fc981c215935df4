// The page snapshot against real Chromium: pages are served on loopback, the cross-origin iframe
// from a second host name (localhost vs 127.0.0.1) so that it runs out of process.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHADOW_HOOK_SCRIPT } from '../src/browser/page-hooks/shadow-hook.js';
import { resolveBackendNodeId, resolveTarget } from '../src/selectors/index.js';
import { captureSnapshot, estimateTokens, type PageSnapshot } from '../src/snapshot/index.js';

const CHROMIUM = process.env.DECKHAND_CHROMIUM ?? '/usr/bin/chromium-headless-shell';
// --site-per-process: the headless shell does not isolate sites by default; the cross-origin frame must be an OOPIF here.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--site-per-process'];

const FORM = `<!doctype html><title>Form</title>
<h1>Account</h1>
<form>
  <label for="email">Email</label><input id="email" type="email" value="a@b.c" required>
  <label>Password <input type="password" value="hunter2-pass"></label>
  <input aria-label="API token" value="tok-SECRET-42">
  <span id="nick-label">Nickname</span><input aria-labelledby="nick-label" placeholder="e.g. ace">
  <input placeholder="Search here">
  <select aria-label="Country"><option>Spain</option><option selected>France</option></select>
  <label><input type="checkbox" checked> Remember me</label>
  <button type="submit" disabled>Sign in</button>
  <button aria-expanded="false">More options</button>
</form>
<a href="/pricing?plan=pro">Pricing</a>
<details><summary>Shipping</summary><p>Two days</p></details>
<div onclick="void 0">Clickable div</div>
<div style="cursor:pointer">Pointer card <span>inner span</span></div>
<div contenteditable="true">Editable note</div>
<p>Echo: tok-SECRET-42</p>
<div style="display:none"><button>Ghost display</button></div>
<div style="visibility:hidden"><button>Ghost visibility</button></div>
<div aria-hidden="true"><button>Ghost aria</button></div>
<div id="box" style="height:60px;overflow:auto"><p style="height:400px">Tall content</p></div>
<div>   </div>
<div><div><div><span>Deep wrapped text</span></div></div></div>
<nav><div id="menu">Products<div style="display:none"><a href="/sub">Hidden sub</a></div></div>
  <button aria-haspopup="true">Profile</button></nav>
<ul><li>Alice Moreau <span><button>Remove</button></span></li><li>Bob Okafor <span><button>Remove</button></span></li></ul>
<script>document.getElementById('menu').addEventListener('mouseenter', () => {});</script>`;

const SHADOW = `<!doctype html><title>Shadow</title>
<x-open></x-open><x-closed></x-closed>
<x-slotted><button slot="s">Slotted button</button></x-slotted>
<script>
customElements.define('x-open', class extends HTMLElement { constructor() { super();
  this.attachShadow({ mode: 'open' }).innerHTML = '<div><button>Open inner</button></div>'; } });
customElements.define('x-closed', class extends HTMLElement { constructor() { super();
  this.attachShadow({ mode: 'closed' }).innerHTML = '<section><input aria-label="Closed field" value="inside"></section>'; } });
customElements.define('x-slotted', class extends HTMLElement { constructor() { super();
  this.attachShadow({ mode: 'open' }).innerHTML = '<nav aria-label="Slot nav"><slot name="s"></slot></nav>'; } });
</script>`;

const FRAMES = (crossOrigin: string) => `<!doctype html><title>Frames</title>
<button>Top button</button>
<iframe title="Same frame" src="/same"></iframe>
<iframe title="Cross frame" src="${crossOrigin}/cross"></iframe>`;
const SAME = `<!doctype html><form><label>Same field <input></label><button>Same submit</button></form>`;
const CROSS = `<!doctype html><a href="/deep">Cross link</a><button>Cross button</button>`;

const LONG = `<!doctype html><title>Long</title><h1>Catalogue</h1><table>${Array.from({ length: 600 }, (_, i) => `<tr><td>${i}</td><td><a href="/item/${i}">Item ${i}</a></td><td><input type="checkbox" aria-label="pick ${i}"></td></tr>`).join('')}</table><h2>Terms</h2><p>Fine print</p>`;

const HUGE = `<!doctype html><title>Huge</title><h1>Catalogue</h1><div>${Array.from({ length: 12_000 }, (_, i) => `<button>Item ${i}</button>`).join('')}</div><h2>Terms</h2><label for="far">Far field</label><input id="far">`;

let server: http.Server;
let base: string;
let crossBase: string;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  const pages: Record<string, string> = { '/form': FORM, '/shadow': SHADOW, '/same': SAME, '/cross': CROSS, '/long': LONG, '/huge': HUGE };
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const body = path === '/frames' ? FRAMES(crossBase) : pages[path];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  crossBase = `http://localhost:${port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  context = await browser.newContext();
  await context.addInitScript(SHADOW_HOOK_SCRIPT);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(base + path);
  return page;
}

/** The outline line of the element with this name. */
function lineOf(snap: PageSnapshot, name: string): string {
  const line = snap.text.split('\n').find((l) => /^\s*\[\d+\]/.test(l) && l.includes(`"${name}"`));
  if (!line) throw new Error(`no line for "${name}" in:\n${snap.text}`);
  return line.trim();
}

/** Every id's xpath leads (through frames and shadow roots) back to an element with that tag and name. */
async function expectXPathsResolve(page: Page, snap: PageSnapshot) {
  for (const el of snap.elements.values()) {
    const found = await resolveTarget(page.mainFrame(), el.xpath, 0);
    expect(found.found, `${el.id} ${el.xpath}`).toBe(true);
    if (!found.found) continue;
    const seen = await found.target.element.evaluate((node) => ({
      tag: node.localName,
      text: [node.getAttribute('aria-label'), node.getAttribute('title'), node.textContent, (node as HTMLInputElement).labels?.[0]?.textContent, node.getAttribute('placeholder')].join(' '),
    }));
    expect(seen.tag, el.xpath).toBe(el.tag);
    if (el.name && el.tag !== 'input') expect(seen.text.replace(/\s+/g, ' '), el.xpath).toContain(el.name);
  }
}

describe('captureSnapshot', () => {
  it('prints roles, names and state, one id per actionable element', async () => {
    const page = await open('/form');
    const snap = await captureSnapshot(page, { maskValues: ['tok-SECRET-42'] });
    expect(snap.text.split('\n')[0]).toBe(`page "Form" ${base}/form`);
    expect(lineOf(snap, 'Account')).toMatch(/^\[\d+\] heading "Account" level=1$/);
    expect(lineOf(snap, 'Email')).toMatch(/^\[\d+\] textbox "Email" value="a@b.c" required$/);
    expect(lineOf(snap, 'Password')).toMatch(/^\[\d+\] textbox "Password" value="••••"$/);
    expect(lineOf(snap, 'API token')).toMatch(/^\[\d+\] textbox "API token" value="••••"$/);
    expect(lineOf(snap, 'Nickname')).toMatch(/^\[\d+\] textbox "Nickname" placeholder="e.g. ace"$/);
    expect(lineOf(snap, 'Search here')).toMatch(/^\[\d+\] textbox "Search here"$/);
    expect(lineOf(snap, 'Country')).toMatch(/^\[\d+\] combobox "Country" selected="France" options="Spain \| France"$/);
    expect(lineOf(snap, 'Remember me')).toMatch(/^\[\d+\] checkbox "Remember me" checked$/);
    expect(lineOf(snap, 'Sign in')).toMatch(/^\[\d+\] button "Sign in" disabled$/);
    expect(lineOf(snap, 'More options')).toMatch(/^\[\d+\] button "More options" collapsed$/);
    expect(lineOf(snap, 'Pricing')).toMatch(/^\[\d+\] link "Pricing" -> \/pricing\?plan=pro$/);
    expect(lineOf(snap, 'Shipping')).toMatch(/^\[\d+\] button "Shipping" collapsed$/);
    // Generic elements that take clicks or hovers are named by their short text, like buttons.
    expect(lineOf(snap, 'Clickable div')).toMatch(/^\[\d+\] generic "Clickable div" clickable$/);
    expect(lineOf(snap, 'Pointer card inner span')).toMatch(/^\[\d+\] generic "Pointer card inner span" clickable$/);
    // A hover handler added by script makes a menu of a plain <div>; its hidden submenu is not in its name.
    expect(lineOf(snap, 'Products')).toMatch(/^\[\d+\] generic "Products" hoverable$/);
    expect(snap.text).not.toContain('Hidden sub');
    expect(lineOf(snap, 'Profile')).toMatch(/^\[\d+\] button "Profile" haspopup=menu$/);
    // A closed <details> shows its summary only.
    expect(snap.text).not.toContain('Two days');
    // A snapshot serving an instruction knows each control's row in its element table (not printed: the
    // outline is the same); one serving none does not read it.
    const removes = (s: PageSnapshot) => [...s.elements.values()].filter((e) => e.name === 'Remove').map((e) => e.context);
    expect(removes(snap)).toEqual([undefined, undefined]);
    const serving = await captureSnapshot(page, { maskValues: ['tok-SECRET-42'], instruction: 'remove Bob' });
    expect(removes(serving)).toEqual(['Alice Moreau', 'Bob Okafor']);
    expect(serving.text).toBe(snap.text);
    expect(snap.text).not.toContain('Alice Moreau Remove');
    expect(snap.text).toMatch(/\[\d+\] textbox value="Editable note"/);
    expect(snap.text).toMatch(/\[\d+\] generic scrollable\n\s+"Tall content"/);
    expect(snap.text).toContain('\n"Deep wrapped text"');
    expect(snap.text).toContain('"Echo: ••••"');

    // Secrets never leave the snapshot: not in the text, not in the element table.
    const everything = snap.text + JSON.stringify([...snap.elements.values()]);
    expect(everything).not.toContain('hunter2-pass');
    expect(everything).not.toContain('tok-SECRET-42');
    for (const ghost of ['Ghost display', 'Ghost visibility', 'Ghost aria']) expect(snap.text).not.toContain(ghost);
    // Whitespace-only text and wrappers leave no lines; the label text is not repeated.
    expect(snap.text).not.toMatch(/^\s*""$/m);
    expect(snap.text.match(/"Email"/g)).toHaveLength(1);

    const ids = [...snap.elements.keys()];
    expect(ids).toEqual(ids.map((_, i) => String(i + 1)));
    for (const line of snap.text.split('\n').filter((l) => /^\s*\[/.test(l))) expect(snap.elements.has(/\[(\d+)\]/.exec(line)![1]!)).toBe(true);
    expect(snap.truncated).toBe(false);
    expect(snap.tokens).toBe(estimateTokens(snap.text));
    await expectXPathsResolve(page, snap);
    await page.close();
  });

  it('walks same-origin and out-of-process iframes under their owner lines', async () => {
    const page = await open('/frames');
    const cross = page.frames().find((f) => f.url().startsWith(crossBase))!;
    // The cross-origin frame really is out of process: it has a CDP session of its own.
    await (await context.newCDPSession(cross)).detach();

    const snap = await captureSnapshot(page);
    const lines = snap.text.split('\n');
    const at = (name: string) => lines.findIndex((l) => l.includes(`"${name}"`));
    expect(lines[at('Same frame')]).toMatch(/^\[\d+\] iframe "Same frame"$/);
    expect(lines[at('Same field')]).toMatch(/^ {4}\[\d+\] textbox "Same field"$/);
    expect(at('Same field')).toBeGreaterThan(at('Same frame'));
    expect(lines[at('Cross link')]).toMatch(/^ {2}\[\d+\] link "Cross link" -> \/deep$/);
    expect(at('Cross link')).toBeGreaterThan(at('Cross frame'));
    const crossButton = [...snap.elements.values()].find((e) => e.name === 'Cross button')!;
    expect(crossButton.xpath).toBe('/html/body[1]/iframe[2]/html/body[1]/button[1]');
    await expectXPathsResolve(page, snap);

    const fromFrame = await captureSnapshot(page, { frame: cross });
    expect(fromFrame.text).toContain('"Cross button"');
    expect(fromFrame.text).not.toContain('Top button');
    expect([...fromFrame.elements.values()].find((e) => e.name === 'Cross button')!.xpath).toBe(crossButton.xpath);
    await page.close();
  });

  it('descends into open and closed shadow roots and slotted content', async () => {
    const page = await open('/shadow');
    const snap = await captureSnapshot(page);
    expect(lineOf(snap, 'Open inner')).toMatch(/^\[\d+\] button "Open inner"$/);
    expect(lineOf(snap, 'Closed field')).toMatch(/^\[\d+\] textbox "Closed field" value="inside"$/);
    expect(snap.text).toMatch(/navigation "Slot nav"\n\s+\[\d+\] button "Slotted button"/);
    const byName = (name: string) => [...snap.elements.values()].find((e) => e.name === name)!;
    expect(byName('Open inner').xpath).toBe('/html/body[1]/x-open[1]/#shadow-root/div[1]/button[1]');
    expect(byName('Closed field').xpath).toBe('/html/body[1]/x-closed[1]/#shadow-root/section[1]/input[1]');
    expect(byName('Slotted button').xpath).toBe('/html/body[1]/x-slotted[1]/button[1]');
    await expectXPathsResolve(page, snap);
    await page.close();
  });

  it('scopes to a subtree by CSS, XPath or deep XPath', async () => {
    const page = await open('/frames');
    const css = await captureSnapshot(page, { selector: 'iframe' });
    expect(css.text).toContain('"Same field"');
    expect(css.text).not.toContain('Top button');

    const deep = await captureSnapshot(page, { selector: '/html/body/iframe[2]/html/body' });
    expect(deep.text).toContain('"Cross button"');
    expect(deep.text).not.toContain('Same field');
    expect([...deep.elements.values()].map((e) => e.xpath)).toContain('/html/body[1]/iframe[2]/html/body[1]/button[1]');
    await expectXPathsResolve(page, deep);

    await expect(captureSnapshot(page, { selector: '#nope' })).rejects.toThrow(/No element matches/);
    await page.close();
  });

  it('cuts to the token budget: instruction matches, then the viewport, and says so', async () => {
    const page = await open('/long');
    const full = await captureSnapshot(page, { tokenBudget: Infinity });
    expect(full.truncated).toBe(false);
    expect(full.tokens).toBeGreaterThan(5000);

    const cut = await captureSnapshot(page, { tokenBudget: 1500, instruction: 'tick the box for Item 542' });
    expect(cut.truncated).toBe(true);
    expect(cut.tokens).toBeLessThanOrEqual(1500);
    const lines = cut.text.split('\n');
    expect(lines[1]).toMatch(/^\[cut: \d+ elements and \d+ lines omitted \(…\); the outline exceeded the budget of 1500 tokens\./);
    expect(cut.text).toContain('"Catalogue"');
    expect(cut.text).toMatch(/link "Item 0"/);
    // The matching row is kept whole: the checkbox next to the link.
    expect(cut.text).toMatch(/link "Item 542" -> \/item\/542\n\s+\[\d+\] checkbox "pick 542"/);
    expect(cut.text).not.toContain('"Item 400"');
    // Headings beyond the cut are kept, so the model knows what lies below.
    expect(cut.text).toMatch(/\[\d+\] heading "Terms" level=2/);
    expect(cut.text).not.toContain('Fine print');
    expect(cut.text).toContain('…');
    for (const line of lines.filter((l) => /^\s*\[\d+\]/.test(l))) expect(cut.elements.has(/\[(\d+)\]/.exec(line)![1]!)).toBe(true);
    expect(cut.elements.size).toBeLessThan(full.elements.size);
    await page.close();
  });

  it('cuts a page of more lines than the walk sends in the page, with the same ids, rule and note', async () => {
    const page = await open('/huge');
    const full = await captureSnapshot(page, { tokenBudget: Infinity });
    const fullLines = full.text.split('\n').length - 1;
    expect(full.elements.size).toBe(12_003);

    const cut = await captureSnapshot(page, { instruction: 'press Item 11500' });
    expect(cut.truncated).toBe(true);
    expect(cut.tokens).toBeLessThanOrEqual(20_000);
    const lines = cut.text.split('\n');
    const shown = lines.slice(2).filter((l) => l.trim() !== '…').length;
    // What the page left out counts with what was cut on the server.
    expect(lines[1]).toContain(`[cut: ${full.elements.size - cut.elements.size} elements and ${fullLines - shown} lines omitted (…)`);
    // Far past the lines the page sends: the instruction's match and the headings stay, under the ids they have uncut.
    for (const name of ['Item 11500', 'Terms']) expect(lineOf(cut, name)).toBe(lineOf(full, name));
    // Labels are found once per walk, not per control: the last field is still named by its own.
    expect(lineOf(full, 'Far field')).toMatch(/^\[12003\] textbox "Far field"$/);
    expect(lineOf(cut, 'Item 0')).toBe(lineOf(full, 'Item 0'));
    expect(cut.text).not.toContain('"Item 9000"');
    for (const line of lines.filter((l) => /^\s*\[\d+\]/.test(l))) expect(cut.elements.get(/\[(\d+)\]/.exec(line)![1]!)?.name).toBe(/"(.*?)"/.exec(line)![1]);
    await page.close();
  });

  it('looks up backend node ids lazily, across frames and closed shadow roots', async () => {
    const page = await open('/frames');
    const snap = await captureSnapshot(page);
    const top = [...snap.elements.values()].find((e) => e.name === 'Top button')!;
    const cdp = await context.newCDPSession(page);
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'button' });
    const expected = (await cdp.send('DOM.describeNode', { nodeId })).node.backendNodeId;
    await cdp.detach();
    expect(await resolveBackendNodeId(page, top.xpath)).toBe(expected);
    for (const name of ['Same submit', 'Cross button']) {
      const el = [...snap.elements.values()].find((e) => e.name === name)!;
      expect(await resolveBackendNodeId(page, el.xpath), name).toBeGreaterThan(0);
    }
    await page.close();

    const shadow = await open('/shadow');
    const closed = [...(await captureSnapshot(shadow)).elements.values()].find((e) => e.name === 'Closed field')!;
    expect(await resolveBackendNodeId(shadow, closed.xpath)).toBeGreaterThan(0);
    await shadow.close();
  });
});
