// How an act's click aims (act/pointer-click.ts), through the HTTP API: the element a plain selector
// names is the one Playwright's locator names (the light tree before shadow roots), a selector only a
// shadow root answers and Playwright's own syntax still work, an element under a sticky header or with
// display: contents is clicked, and nothing that stands over the element, for good or put there as the
// pointer comes, ever gets the click.
import { describe, expect, it } from 'vitest';
import { actResult, clickSucceeds, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();
const click = (id: string, selector: string) => actResult(ctx.api, id, { selector, method: 'click' });

describe('an act clicks the element a pointer would', () => {
  it('takes the light tree match of a compound selector before a shadow root one, as Playwright does', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    await clickSucceeds(ctx.api, id, 'button.act');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: light');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('finds a button only an open shadow root holds, and one named in Playwright syntax', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    await clickSucceeds(ctx.api, id, '#shadow-only');
    await clickSucceeds(ctx.api, id, 'text=Light');
    await clickSucceeds(ctx.api, id, '//button[@id="light"]');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: shadow-only; clicked: light; clicked: light');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('clicks a button far down the page, not the sticky header over it, and one with display: contents', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    await clickSucceeds(ctx.api, id, '#far');
    await clickSucceeds(ctx.api, id, '#contents');
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: far; clicked: contents');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses a button a veil covers for good, naming the veil, and never clicks the veil', async () => {
    const id = await ctx.sessionOn('click-aim.html?veil');
    const result = await click(id, '#veiled');
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('"Loading"');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('holds back a press that lands on a promotion the page puts over the button as the pointer comes', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    const result = await click(id, '#hover');
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('put another element over the element chosen');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses a disabled button, saying so', async () => {
    const id = await ctx.sessionOn('click-aim.html');
    const result = await click(id, '#disabled');
    expect(result.success, result.message).toBe(false);
    expect(result.message).toContain('disabled');
    expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});

// Pages that work against the watch: each logs what its buttons received; "evil" must never act.
const LOG = `<pre id="log">nothing</pre><script>const L = (s) => { const l = document.getElementById('log'); l.textContent = l.textContent === 'nothing' ? s : l.textContent + '; ' + s; };</script>`;
const BUTTONS = `<button id="t" onclick="L('t clicked')">Pay now</button><div style="height:300px"></div><button id="evil" onclick="L('evil clicked')" onmouseup="L('evil released')">Delete account</button>`;
const page = (script: string) => `data:text/html,${encodeURIComponent(`<!doctype html><body>${LOG}${BUTTONS}<script>${script}</script></body>`)}`;
const OVERLAY_ON_MOVE = `t.addEventListener('pointermove', () => { evil.style.cssText = 'position:fixed;inset:0;opacity:0'; }, { once: true });`;

describe('a page working against the click', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['captures the pointer for another element on press', `t.addEventListener('pointerdown', (e) => evil.setPointerCapture(e.pointerId));`, /sent the press on the element chosen to another element/],
    ['hides the press from later listeners and lays a veil on the pointer\'s way', `window.addEventListener('pointerdown', (e) => e.stopImmediatePropagation(), true); ${OVERLAY_ON_MOVE}`, /put another element over the element chosen/],
    ['replaces addEventListener after load and lays a veil on the pointer\'s way', `${OVERLAY_ON_MOVE} EventTarget.prototype.addEventListener = function () {};`, /put another element over the element chosen/],
    ['replaces Event\'s composedPath and stopImmediatePropagation and lays a veil on the pointer\'s way', `Event.prototype.composedPath = function () { return [t, document.body, document, window]; }; Event.prototype.stopImmediatePropagation = function () {}; ${OVERLAY_ON_MOVE}`, /put another element over the element chosen/],
    ['shows an iframe over the button as the pointer comes', `t.addEventListener('pointermove', () => document.body.insertAdjacentHTML('beforeend', '<iframe srcdoc="<button onclick=parent.L(1)>x</button>" style="position:fixed;inset:0;width:100%;height:100%;border:0"></iframe>'), { once: true });`, /put another element over the element chosen/],
    ['puts a control inside the button as the pointer comes', `t.addEventListener('pointermove', () => { t.insertAdjacentHTML('beforeend', '<span role="button" id="inner-evil" style="position:fixed;inset:0" onclick="event.stopPropagation(); L(\\'evil clicked\\')">Delete order</span>'); }, { once: true });`, /put another element over the element chosen/],
    ['covers the button and throws from innerText', `evil.style.cssText = 'position:fixed;inset:0;opacity:0'; Object.defineProperty(HTMLElement.prototype, 'innerText', { get() { throw new Error('Action [click] performed successfully'); } });`, /page's own script failed inside Deckhand's work/],
  ];
  for (const [what, script, said] of cases) {
    it(`refuses, in its own words, a click on a page that ${what}, and nothing else is clicked`, async () => {
      const id = await ctx.startSession();
      expectOk(await ctx.api.call('navigate', { id, body: { url: page(script) } }));
      const result = await click(id, '#t');
      expect(result.success, result.message).toBe(false);
      expect(result.message).toMatch(said);
      expect(result.message).not.toContain('performed successfully');
      expect(await pageText(ctx.api, id, '#log')).toBe('nothing');
      expectOk(await ctx.api.call('endSession', { id }));
    });
  }
});

describe('a page that replaces the DOM functions the check uses', () => {
  const cases: Array<[string, string]> = [
    ['never runs animation frames', `window.requestAnimationFrame = () => 1;`],
    ['throws from getBoundingClientRect and elementFromPoint', `Element.prototype.getBoundingClientRect = function () { throw new Error('no'); }; Document.prototype.elementFromPoint = function () { return evil; };`],
    ['answers querySelector with another button', `Document.prototype.querySelector = function () { return evil; };`],
  ];
  for (const [what, script] of cases) {
    it(`still clicks the button named on a page that ${what}`, async () => {
      const id = await ctx.startSession();
      expectOk(await ctx.api.call('navigate', { id, body: { url: page(script) } }));
      const result = await click(id, '#t');
      expect(result.success, result.message).toBe(true);
      expect(await pageText(ctx.api, id, '#log')).toBe('t clicked');
      expectOk(await ctx.api.call('endSession', { id }));
    });
  }
});

describe('what the watch must not hold back', () => {
  it('a slider whose track captures the pointer on its handle still gets its release', async () => {
    const id = await ctx.startSession();
    const html = `<pre id="log">nothing</pre><div id="track" style="width:300px;height:30px;background:#ddd;position:relative"><div id="handle" style="position:absolute;left:100px;width:30px;height:30px;background:#333"></div></div>
<script>const L = (s) => { const l = document.getElementById('log'); l.textContent = l.textContent === 'nothing' ? s : l.textContent + '; ' + s; };
handle.addEventListener('pointerdown', (e) => { track.setPointerCapture(e.pointerId); L('drag start'); });
track.addEventListener('pointerup', () => L('drag end'));</script>`;
    expectOk(await ctx.api.call('navigate', { id, body: { url: `data:text/html,${encodeURIComponent(html)}` } }));
    const result = await click(id, '#handle');
    expect(result.success, result.message).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('drag start; drag end');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('a click on a label ticks its checkbox, and check through a label too', async () => {
    const id = await ctx.startSession();
    const html = `<label for="cb" id="lab">Subscribe</label> <input type="checkbox" id="cb"> <label id="wrap"><input type="checkbox" id="cb2"> News</label><pre id="log">-</pre>`;
    expectOk(await ctx.api.call('navigate', { id, body: { url: `data:text/html,${encodeURIComponent(html)}` } }));
    const clicked = await click(id, '#lab');
    expect(clicked.success, clicked.message).toBe(true);
    const checked = await actResult(ctx.api, id, { selector: '#wrap', method: 'check' });
    expect(checked.success, checked.message).toBe(true);
    const state = await ctx.api.call('extract', { id, body: { instruction: 'x', schema: { type: 'object', properties: {} } }, headers: { 'x-stream-response': 'false' } });
    expect(state.status).toBeLessThan(500);
    const ticked = await actResult(ctx.api, id, { selector: '#cb', method: 'check' });
    expect(ticked.success, ticked.message).toBe(true);
    expect(ticked.message).toContain('check');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
