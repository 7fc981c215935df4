// A read (observe, extract) of a page that is as the last replay picture shows it gets that picture's
// number instead of a new picture; any change a picture would show gets a new one, and so does every read
// of a page the mark cannot follow whole (pictures/picture-mark.ts).
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { START_BODY, expectOk, useContract } from '../support/contract';

const ctx = useContract();
const START = { browser: { type: 'local', launchOptions: { ...START_BODY.browser.launchOptions, viewport: { width: 800, height: 600 } } } };

/** Each recorded operation's method and picture number, in order. */
async function pictures(id: string): Promise<Array<[string, number | undefined]>> {
  const replay = await ctx.api.call('replaySession', { id });
  expectOk(replay);
  return replay.body.data.pages.flatMap((page: { actions: Array<{ method: string; picture?: number }> }) => page.actions.map((a) => [a.method, a.picture]));
}

const lastPicture = async (id: string) => (await pictures(id)).at(-1)![1];

/** Runs `script` in the session's page over its CDP relay, as any client on `cdpUrl` can. */
async function inPage(id: string, script: (page: Page) => Promise<unknown>): Promise<void> {
  const record = await ctx.api.call('getBrowserSession', { id });
  const browser = await chromium.connectOverCDP(record.body.connectUrl);
  try {
    await script(browser.contexts()[0]!.pages()[0]!);
  } finally {
    await browser.close().catch(() => {});
  }
}

const observe = async (id: string) => expectOk(await ctx.api.call('observe', { id, body: {} }));

describe('replay pictures of reads', () => {
  it('gives a read of an unchanged page the last picture, and an act a picture of its own', async () => {
    const id = await ctx.sessionOn('pictures.html', START);
    await observe(id);
    expectOk(await ctx.api.call('extract', { id, body: {} }));
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#box', method: 'click', arguments: [], description: 'the box' } } }));
    await observe(id);
    expect(await pictures(id)).toEqual([
      ['navigate', 1],
      ['observe', 1],
      ['extract', 1],
      ['act', 2],
      ['observe', 2],
    ]);
    const shared = await ctx.api.call('getReplayPicture', { id, query: { step: '2' } });
    expectOk(shared);
    expect(shared.headers.get('content-type')).toBe('image/jpeg');
  });

  it('takes a new picture for a read after the page changed what a picture shows', async () => {
    const id = await ctx.sessionOn('pictures.html', START);
    await observe(id);
    expect(await lastPicture(id)).toBe(1);
    const changes: Array<[string, (page: Page) => Promise<unknown>]> = [
      ['its DOM', (page) => page.evaluate(() => document.body.append('a line the page added'))],
      ['its scroll', (page) => page.evaluate(() => scrollTo(0, 400))],
      ['its focus', (page) => page.evaluate(() => document.getElementById('note')!.focus())],
      ['a field value a script set', (page) => page.evaluate(() => void ((document.getElementById('note') as HTMLInputElement).value = 'set by a script'))],
      ['its address', (page) => page.evaluate(() => history.pushState(null, '', '?moved'))],
      ['a rule a script inserted', (page) => page.evaluate(() => document.styleSheets[0]!.insertRule('#box { background: #a26; }'))],
      [
        'a style sheet a script adopted',
        (page) =>
          page.evaluate(() => {
            const sheet = new CSSStyleSheet();
            sheet.replaceSync('#box { outline: 4px solid #000; }');
            document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
          }),
      ],
      ['a text selection', (page) => page.evaluate(() => getSelection()!.selectAllChildren(document.getElementById('box')!))],
      ['a validity message', (page) => page.evaluate(() => (document.getElementById('note') as HTMLInputElement).setCustomValidity('not yet'))],
      ['its document', (page) => page.reload()],
    ];
    let last = 1;
    for (const [what, change] of changes) {
      await inPage(id, change);
      await observe(id);
      expect(await lastPicture(id), what).toBe(last + 1);
      last++;
      await observe(id);
      expect(await lastPicture(id), `${what}, read again`).toBe(last);
    }
  });

  it('takes a new picture for every read of a page it cannot follow whole', async () => {
    const additions: Array<[string, (page: Page) => Promise<unknown>]> = [
      ['a shadow root', (page) => page.evaluate(() => document.getElementById('box')!.attachShadow({ mode: 'closed' }).append('inside'))],
      ['a canvas', (page) => page.evaluate(() => document.body.append(document.createElement('canvas')))],
      ['a child frame', (page) => page.evaluate(() => document.body.append(document.createElement('iframe')))],
      ['a running animation', (page) => page.evaluate(() => void document.getElementById('box')!.animate([{ opacity: 1 }, { opacity: 0.5 }], { duration: 60_000 }))],
      ['an SVG animation', (page) => page.evaluate(() => void (document.getElementById('box')!.innerHTML = '<svg width="40" height="40"><rect width="40" height="40"><animate attributeName="width" from="0" to="40" dur="60s"/></rect></svg>'))],
    ];
    for (const [what, add] of additions) {
      const id = await ctx.sessionOn('pictures.html', START);
      await inPage(id, add);
      await observe(id);
      await observe(id);
      expect(await pictures(id), what).toEqual([
        ['navigate', 1],
        ['observe', 2],
        ['observe', 3],
      ]);
    }
  });
});
