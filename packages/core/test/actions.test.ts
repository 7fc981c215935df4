// Every Action method against the fixture pages, in the page, in same- and cross-origin iframes and
// in open and closed shadow roots; failures as results; variables; timeouts; frameId; popups.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../src/session/session.js';
import type { Action, ActRequest } from '../src/types.js';
import { attachObserver, opContext, startFixtureServer, testManager, textOf, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
let session: Session;
let observer: Browser;
const manager = testManager();

beforeAll(async () => {
  fixtures = await startFixtureServer();
  session = await manager.start('p1', { modelName: 'builtin/offline' });
  observer = await attachObserver(session);
});
afterAll(async () => {
  await observer.close();
  await manager.shutdown();
  await fixtures.close();
});

const open = (path: string) => session.navigate({ url: fixtures.url(path) }, opContext());
const act = (input: Action, extra: Omit<ActRequest, 'input'> = {}) => session.act({ input, ...extra }, opContext());
/** Evaluates in the session's active page through an independent CDP client. */
const inPage = async <T>(expression: string): Promise<T> => {
  const pages = observer.contexts()[0]!.pages();
  return pages.at(-1)!.evaluate(expression) as Promise<T>;
};

const FRAME_LOG = "/html/body/div/iframe[1]/html/body/div[@id='log']";
const FRAME_BUTTON = '/html/body/div/iframe[1]/html/body/button[1]';
const FRAME_INPUT = '/html/body/div/iframe[1]/html/body/input[1]';

describe('page actions', () => {
  it('click', async () => {
    await open('/forms.html');
    expect(await act({ selector: '#go', method: 'click', description: 'the Go button' })).toEqual({
      success: true,
      message: 'Action [click] performed successfully on selector: #go',
      actionDescription: 'the Go button',
      actions: [{ selector: '#go', method: 'click', description: 'the Go button' }],
    });
    expect(await textOf(session, '#log')).toBe('clicked: go');
  });

  it('fill, type and submit', async () => {
    await open('/forms.html');
    expect((await act({ selector: '#name', method: 'fill', arguments: ['Ada'] })).success).toBe(true);
    expect((await act({ selector: '//input[@id="email"]', method: 'type', arguments: ['ada@example.com'] })).success).toBe(true);
    expect((await act({ selector: '#bio', method: 'fill', arguments: ['Hello'] })).success).toBe(true);
    expect((await act({ selector: '#submit', method: 'click' })).success).toBe(true);
    expect(await textOf(session, '#result')).toBe('submitted: Ada / ada@example.com / 0 chars / Hello');
  });

  it('press on an element and on the page', async () => {
    await open('/forms.html');
    expect((await act({ selector: '#keys', method: 'press', arguments: ['Enter'] })).success).toBe(true);
    expect((await act({ selector: '', method: 'press', arguments: ['a'] })).success).toBe(true);
    expect(await textOf(session, '#log')).toBe('key: Enter\nkey: a');
  });

  it('hover and dragAndDrop', async () => {
    await open('/forms.html');
    expect((await act({ selector: '#hover-target', method: 'hover' })).success).toBe(true);
    expect((await act({ selector: '#drag-source', method: 'dragAndDrop', arguments: ['#drop-target'] })).success).toBe(true);
    expect(await textOf(session, '#log')).toContain('hovered');
    expect(await textOf(session, '#log')).toContain('dropped: drag-source');
  });

  it('selectOptionFromDropdown by label', async () => {
    await open('/select.html');
    expect((await act({ selector: '#color', method: 'selectOptionFromDropdown', arguments: ['Green'] })).success).toBe(true);
    expect(await textOf(session, '#log')).toBe('selected: g');
    const missing = await act({ selector: '#color', method: 'selectOptionFromDropdown', arguments: ['Purple'] });
    expect(missing.success).toBe(false);
  });

  it('check and uncheck, radios', async () => {
    await open('/checkboxes.html');
    expect((await act({ selector: '#terms', method: 'check' })).success).toBe(true);
    expect((await act({ selector: '#news', method: 'uncheck' })).success).toBe(true);
    expect((await act({ selector: '#size-l', method: 'check' })).success).toBe(true);
    expect(await textOf(session, '#log')).toBe('terms: true\nnews: false\nsize: l');
  });

  it('scrollTo, nextChunk, prevChunk and scrollIntoView', async () => {
    await open('/long-list.html');
    expect((await act({ selector: '/html', method: 'scrollTo', arguments: ['50%'] })).success).toBe(true);
    const max = await inPage<number>('document.scrollingElement.scrollHeight - innerHeight');
    expect(Math.abs((await inPage<number>('scrollY')) - max / 2)).toBeLessThan(2);
    await act({ selector: '/html', method: 'scrollTo', arguments: ['0'] });
    expect((await act({ selector: 'body', method: 'nextChunk' })).success).toBe(true);
    expect(await inPage<number>('scrollY')).toBe(768);
    await act({ selector: 'body', method: 'prevChunk' });
    expect(await inPage<number>('scrollY')).toBe(0);
    expect((await act({ selector: '#scroller', method: 'nextChunk' })).success).toBe(true);
    expect(await inPage<number>("document.getElementById('scroller').scrollTop")).toBe(
      await inPage<number>("document.getElementById('scroller').clientHeight"),
    );
    await act({ selector: '#scroller', method: 'scrollTo', arguments: ['100%'] });
    expect(await inPage<boolean>("(s => s.scrollTop + s.clientHeight >= s.scrollHeight - 1)(document.getElementById('scroller'))")).toBe(true);
    expect((await act({ selector: '#items > li:last-child', method: 'scrollIntoView' })).success).toBe(true);
    expect(await inPage<number>('scrollY')).toBeGreaterThan(max / 2);
  });

  it('waits for a fetch the click started, and for a navigation', async () => {
    await open('/slow.html');
    await act({ selector: '#fetch' });
    expect(await textOf(session, '#log')).toBe('loaded: 800');
    await act({ selector: '#slow-link' });
    expect(await textOf(session, 'h1')).toBe('Sign up');
  });
});

describe('frames and shadow roots', () => {
  it('acts inside a same-origin iframe by deep XPath', async () => {
    await open('/iframe.html');
    expect((await act({ selector: FRAME_BUTTON })).success).toBe(true);
    expect((await act({ selector: FRAME_INPUT, method: 'fill', arguments: ['x1'] })).success).toBe(true);
    expect(await textOf(session, FRAME_LOG)).toBe('clicked: inner\ninner value: x1');
  });

  it('acts inside a cross-origin (out-of-process) iframe by deep XPath', async () => {
    await open('/cross-iframe.html');
    // The observer learns the out-of-process frame's URL asynchronously.
    const page = observer.contexts()[0]!.pages().at(-1)!;
    await expect.poll(() => page.frames()[1]?.url()).toContain(fixtures.crossOrigin);
    expect((await act({ selector: FRAME_BUTTON })).success).toBe(true);
    expect((await act({ selector: FRAME_INPUT, method: 'type', arguments: ['yo'] })).success).toBe(true);
    expect(await textOf(session, FRAME_LOG)).toBe('clicked: inner\ninner value: y\ninner value: yo');
  });

  it('targets a frame by its CDP frameId', async () => {
    await open('/cross-iframe.html');
    // An out-of-process iframe's CDP frame id is its target id; the browser's target list is current
    // as soon as navigate returns (an observer's frame list may still hold the previous document's).
    const cdp = await observer.contexts()[0]!.newCDPSession(observer.contexts()[0]!.pages().at(-1)!);
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string; targetId: string }> };
    const frameId = targetInfos.find((t) => t.type === 'iframe' && t.url.startsWith(fixtures.crossOrigin))!.targetId;
    await cdp.detach();
    expect((await act({ selector: '#inner-btn' }, { frameId })).success).toBe(true);
    expect(await textOf(session, '#log', frameId)).toBe('clicked: inner');
    await expect(act({ selector: '#inner-btn' }, { frameId: 'NOPE' })).rejects.toMatchObject({ code: 'frame_not_found' });
  });

  it('acts in open and closed shadow roots', async () => {
    await open('/shadow.html');
    for (const host of ['open-card', 'closed-card']) {
      expect((await act({ selector: `/html/body/${host}[1]/#shadow-root/div[1]/button[1]` })).success).toBe(true);
      const input = `/html/body/${host}[1]/#shadow-root/div/input`;
      expect((await act({ selector: input, method: 'fill', arguments: ['z'] })).success).toBe(true);
    }
    // CSS pierces open roots only.
    expect((await act({ selector: 'open-card .btn' })).success).toBe(true);
    expect(await textOf(session, '#log')).toBe('clicked: open\nopen value: z\nclicked: closed\nclosed value: z\nclicked: open');
  });
});

describe('failures, variables, timeouts, popups', () => {
  it('reports a missing or refused target as success: false', async () => {
    await open('/forms.html');
    const result = await act({ selector: '#does-not-exist' });
    expect(result).toMatchObject({ success: false, message: 'No element matches selector "#does-not-exist"' });
    expect((await act({ selector: '#disabled' })).message).toBe('Element is disabled');
    expect((await act({ selector: 'h1', method: 'fill', arguments: ['x'] })).message).toMatch(/not an <input>/);
    expect((await act({ selector: '#go', method: 'teleport' })).message).toBe('Unknown action method "teleport"');
  });

  it('substitutes variables at execution and never echoes their values', async () => {
    await open('/forms.html');
    const scope = opContext();
    const variables = { pw: 'hunter2-secret', key: { value: 'NoSuchKey-secret', description: 'a key' } };
    const filled = await session.act({ input: { selector: '#password', method: 'fill', arguments: ['%pw%'] }, options: { variables } }, scope);
    expect(filled.actions).toEqual([{ selector: '#password', method: 'fill', arguments: ['%pw%'] }]);
    const pressed = await session.act({ input: { selector: '#keys', method: 'press', arguments: ['%key%'] }, options: { variables } }, scope);
    expect(pressed.success).toBe(false);
    await act({ selector: '#submit' });
    expect(await textOf(session, '#result')).toContain('14 chars');
    const everything = JSON.stringify([filled, pressed, scope.lines, session.replay()]);
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain('NoSuchKey');
    expect(pressed.message).toContain('%key%');
  });

  it('refuses a fill the control would clamp, snap, cut or hold out of bounds, before anything is typed', async () => {
    await open('/sanitising-controls.html');
    const fill = (selector: string, value: string, variables?: Record<string, string>) =>
      session.act({ input: { selector, method: 'fill', arguments: [value] }, ...(variables && { options: { variables } }) }, opContext());
    expect((await fill('#volume', '80')).message).toMatch(/cannot take "80": a slider keeps to its range and step \(min 0, max 50, step 10\), so it would hold "50"; nothing was typed/);
    expect((await fill('#volume', '35')).message).toMatch(/would hold "40"/);
    expect((await fill('#seats', '150')).message).toMatch(/out of its bounds \(rangeOverflow; min 1, max 10\)/);
    // A variable's value is named by the variable, and no piece of it is echoed.
    const cut = await fill('#code', '%code%', { code: 'abcdefgh' });
    expect(cut).toMatchObject({ success: false, message: expect.stringMatching(/"%code%": it takes at most 5 characters \(maxlength\)/) });
    expect(cut.message).not.toMatch(/abcde/);
    expect(await inPage('[volume.value, code.value, seats.value, events.textContent]')).toEqual(['20', '', '2', '']);
    expect((await fill('#volume', '30')).success).toBe(true);
    expect(await inPage('volume.value')).toBe('30');
  });

  it('bounds the whole act by options.timeout, and settling by domSettleTimeoutMs', async () => {
    // slow.html never stops mutating, so only a bound ends the settle wait.
    await open('/slow.html');
    await expect(act({ selector: '#ticker' }, { options: { timeout: 700 } })).rejects.toMatchObject({ code: 'timeout' });

    // A settle bound shorter than the operation timeout ends the wait first: success, and the log says why.
    const quick = await manager.start('p1', { modelName: 'builtin/offline', domSettleTimeoutMs: 600, verbose: 2 });
    await quick.navigate({ url: fixtures.url('/slow.html') }, opContext());
    const scope = opContext();
    expect((await quick.act({ input: { selector: '#ticker' }, options: { timeout: 5_000 } }, scope)).success).toBe(true);
    expect(scope.lines.map((line) => line.message)).toContain('page did not settle before the bound; continuing');
    await manager.end('p1', quick.id);
  });

  it('waits for mutations inside a closed shadow root to stop before reporting back', async () => {
    await open('/shadow-busy.html');
    expect((await act({ selector: '/html/body/busy-widget[1]/#shadow-root/button[1]' })).success).toBe(true);
    // 25 rows, 30 ms apart: each gap is shorter than the settle quiet period, so watching the root keeps us waiting.
    expect(await textOf(session, '#log')).toBe('rendered: 25');
  });

  it('makes a popup the active page and falls back when it closes', async () => {
    await open('/popup.html');
    expect((await act({ selector: '#open' })).success).toBe(true);
    // The act returned only once the popup was adopted and loaded: the next operation acts there.
    expect((await act({ selector: '#go' })).success).toBe(true);
    expect(await textOf(session, '#log')).toBe('clicked: go');
    const popup = () => observer.contexts()[0]!.pages().find((p) => p.url().endsWith('/forms.html'));
    await expect.poll(popup).toBeDefined();
    await popup()!.close();
    // The session hears of the close on its own connection, a moment after the observer does.
    await expect.poll(() => textOf(session, '#log')).toBe('opened');
  });
});
