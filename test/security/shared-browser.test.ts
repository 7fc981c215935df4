// Attack: sessions of one project share a Chromium (as separate browser contexts), so session B's cdpUrl
// is a DevTools connection to the browser that also holds session A's page. Through it B must see and
// reach only its own context: no listing, attaching to, activating or closing A's page, no closing or
// crashing the browser, no making or disposing contexts. Ending A leaves B working, and a crash of A's
// page stays A's. Projects never share a browser, and a session whose launch options change the
// browser process gets a browser of its own.
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { driverFor } from '../support/drivers';
import { expectOk, START_BODY, useContract } from '../support/contract';
import { ALLOW_FIXTURES } from '../support/fixture-server';
import { browserPidOf } from '../support/processes';
import { rawCdp } from '../support/raw-cdp';

const ctx = useContract({ DECKHAND_API_KEYS: 'key-a:project-a,key-b:project-b', DECKHAND_PROJECT_MAX_SESSIONS: '0', ...ALLOW_FIXTURES }, { 'x-bb-api-key': 'key-a' });
const otherProject = () => driverFor(ctx.server.url, { 'x-bb-api-key': 'key-b' });

interface Started {
  id: string;
  cdpUrl: string;
}

async function sessionOn(fixture: string, api = ctx.api, extra: Record<string, unknown> = {}): Promise<Started> {
  const reply = await api.call('startSession', { body: { ...START_BODY, ...extra } });
  expectOk(reply);
  const { sessionId: id, cdpUrl } = reply.body.data;
  expectOk(await api.call('navigate', { id, body: { url: ctx.fixtures.url(fixture) } }));
  return { id, cdpUrl };
}

async function pageTargets(cdpUrl: string): Promise<Array<{ targetId: string; url: string }>> {
  const cdp = await rawCdp(cdpUrl);
  try {
    return (await cdp.send('Target.getTargets')).result!.targetInfos!.filter((t) => t.type === 'page');
  } finally {
    cdp.close();
  }
}

describe("session B of the same project, through its cdpUrl, never reaches session A's page", () => {
  it('shares A’s browser process, but not with another project; launch options that change the browser get their own', async () => {
    const a = await sessionOn('forms.html');
    const b = await sessionOn('select.html');
    const other = await sessionOn('forms.html', otherProject());
    const own = await sessionOn('forms.html', ctx.api, { browser: { type: 'local', launchOptions: { headless: true, locale: 'de-DE' } } });
    const pid = await browserPidOf(a.cdpUrl);
    expect(await browserPidOf(b.cdpUrl)).toBe(pid);
    expect(await browserPidOf(other.cdpUrl)).not.toBe(pid);
    expect(await browserPidOf(own.cdpUrl)).not.toBe(pid);
    for (const s of [a, b, own]) expectOk(await ctx.api.call('endSession', { id: s.id }));
    expectOk(await otherProject().call('endSession', { id: other.id }));
  });

  it('lists, discovers and auto-attaches only its own pages; cannot attach to, activate or close A’s', async () => {
    const a = await sessionOn('forms.html');
    const b = await sessionOn('select.html');
    const [aPage] = await pageTargets(a.cdpUrl);
    expect(aPage!.url).toBe(ctx.fixtures.url('forms.html'));

    const cdp = await rawCdp(b.cdpUrl);
    const listed = (await cdp.send('Target.getTargets')).result!.targetInfos!;
    expect(listed.map((t) => t.url)).toEqual([ctx.fixtures.url('select.html')]);
    expect(listed.map((t) => t.targetId)).not.toContain(aPage!.targetId);

    for (const method of ['Target.attachToTarget', 'Target.activateTarget', 'Target.closeTarget', 'Target.getTargetInfo']) {
      const reply = await cdp.send(method, { targetId: aPage!.targetId, flatten: true });
      expect(reply.error, method).toBeDefined();
    }
    // Nor from the session of a page of its own.
    const bPage = (await cdp.send('Target.attachToTarget', { targetId: listed[0]!.targetId, flatten: true })).result!.sessionId as string;
    const fromPage = (await cdp.send('Target.getTargets', {}, bPage)).result!.targetInfos!;
    expect(fromPage.map((t) => t.targetId)).not.toContain(aPage!.targetId);
    expect((await cdp.send('Target.attachToTarget', { targetId: aPage!.targetId, flatten: true }, bPage)).error).toBeDefined();
    expect((await cdp.send('Browser.close', {}, bPage)).error).toBeDefined();
    expect((await cdp.send('Runtime.evaluate', { expression: '1 + 1', returnByValue: true }, bPage)).result).toMatchObject({ result: { value: 2 } });
    await cdp.send('Target.detachFromTarget', { sessionId: bPage });
    const mark = cdp.events.length;
    expect((await cdp.send('Target.setDiscoverTargets', { discover: true })).error).toBeUndefined();
    expect((await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true })).error).toBeUndefined();
    // A new page of A's, made after B started listening, is not announced to B either.
    const aCdp = await rawCdp(a.cdpUrl);
    const aNew = await aCdp.send('Target.createTarget', { url: 'about:blank#a-second-page' });
    expect(aNew.error).toBeUndefined();
    const made = await cdp.send('Target.createTarget', { url: 'about:blank#b-second-page' });
    await expect.poll(() => cdp.events.slice(mark).filter((e) => e.method === 'Target.attachedToTarget').length).toBe(2);
    const seen = cdp.events.filter((e) => e.method.startsWith('Target.')).map((e) => e.params.targetInfo?.targetId ?? e.params.targetId);
    expect(seen).not.toContain(aPage!.targetId);
    expect(seen).not.toContain(aNew.result!.targetId);
    expect(seen).toContain(made.result!.targetId);
    // B's new page went into B's context: B lists it, A does not.
    expect((await pageTargets(b.cdpUrl)).map((t) => t.targetId)).toContain(made.result!.targetId);
    expect((await pageTargets(a.cdpUrl)).map((t) => t.targetId)).not.toContain(made.result!.targetId);
    expect((await aCdp.send('Target.closeTarget', { targetId: aNew.result!.targetId })).error).toBeUndefined();
    aCdp.close();
    cdp.close();

    // A's page is untouched.
    await expect.poll(() => pageTargets(a.cdpUrl)).toEqual([expect.objectContaining({ targetId: aPage!.targetId, url: ctx.fixtures.url('forms.html') })]);
    for (const s of [a, b]) expectOk(await ctx.api.call('endSession', { id: s.id }));
  });

  it('cannot close or crash the browser, nor make, list or dispose other contexts', async () => {
    const a = await sessionOn('forms.html');
    const b = await sessionOn('select.html');
    const cdp = await rawCdp(b.cdpUrl);
    const contexts = (await cdp.send('Target.getBrowserContexts')).result!.browserContextIds as string[];
    expect(contexts).toHaveLength(1);
    for (const method of ['Browser.close', 'Browser.crash', 'Target.createBrowserContext', 'Tracing.start', 'Target.exposeDevToolsProtocol']) {
      expect((await cdp.send(method)).error, method).toBeDefined();
    }
    // Another context named explicitly, or a page made in one, is refused.
    const aContext = await (async () => {
      const aCdp = await rawCdp(a.cdpUrl);
      const ids = (await aCdp.send('Target.getBrowserContexts')).result!.browserContextIds as string[];
      aCdp.close();
      return ids[0]!;
    })();
    expect(aContext).not.toBe(contexts[0]);
    expect((await cdp.send('Target.disposeBrowserContext', { browserContextId: aContext })).error).toBeDefined();
    expect((await cdp.send('Target.createTarget', { url: 'about:blank', browserContextId: aContext })).error).toBeDefined();
    expect((await cdp.send('Storage.getCookies', { browserContextId: aContext })).error).toBeDefined();
    // A browser-level session opened through the channel is held to the same rules.
    const root = (await cdp.send('Target.attachToBrowserTarget')).result!.sessionId as string;
    expect((await cdp.send('Browser.close', {}, root)).error).toBeDefined();
    const listed = (await cdp.send('Target.getTargets', {}, root)).result!.targetInfos!;
    expect(listed.map((t) => t.url)).toEqual([ctx.fixtures.url('select.html')]);
    cdp.close();

    for (const s of [a, b]) expectOk(await ctx.api.call('navigate', { id: s.id, body: { url: ctx.fixtures.url('forms.html') } }));
    for (const s of [a, b]) expectOk(await ctx.api.call('endSession', { id: s.id }));
  });

  it('sees only its own page through Playwright connectOverCDP', async () => {
    const a = await sessionOn('forms.html');
    const b = await sessionOn('select.html');
    const browser = await chromium.connectOverCDP(b.cdpUrl);
    try {
      const pages = browser.contexts().flatMap((context) => context.pages());
      expect(pages.map((p) => p.url())).toEqual([ctx.fixtures.url('select.html')]);
      expect(await pages[0]!.evaluate(() => document.title)).toBeTypeOf('string');
    } finally {
      await browser.close();
    }
    // Disconnecting B's client closed nothing of A's (nor B's).
    for (const s of [a, b]) expectOk(await ctx.api.call('extract', { id: s.id, body: { options: { selector: 'body' } } }));
    for (const s of [a, b]) expectOk(await ctx.api.call('endSession', { id: s.id }));
  });

  it('keeps B working when A ends, and when A’s page crashes', async () => {
    const a = await sessionOn('forms.html');
    const b = await sessionOn('forms.html');
    const c = await sessionOn('forms.html');
    // A crashes its own page (allowed: it is its own).
    const aCdp = await rawCdp(a.cdpUrl);
    const [aPage] = await pageTargets(a.cdpUrl);
    const attached = await aCdp.send('Target.attachToTarget', { targetId: aPage!.targetId, flatten: true });
    void aCdp.send('Page.crash', {}, attached.result!.sessionId as string);
    await expect.poll(async () => (await ctx.api.call('extract', { id: a.id, body: { options: { selector: 'h1' } } })).status, { timeout: 10_000 }).not.toBe(200);
    aCdp.close();
    expectOk(await ctx.api.call('act', { id: b.id, body: { input: { selector: '#go', method: 'click' } } }));
    // Ending C disposes its context only.
    expectOk(await ctx.api.call('endSession', { id: c.id }));
    expectOk(await ctx.api.call('act', { id: b.id, body: { input: { selector: '#go', method: 'click' } } }));
    const bCdp = await rawCdp(b.cdpUrl);
    expect((await bCdp.send('Target.getTargets')).result!.targetInfos!.filter((t) => t.type === 'page')).toHaveLength(1);
    bCdp.close();
    await ctx.api.call('endSession', { id: a.id });
    expectOk(await ctx.api.call('endSession', { id: b.id }));
  });
});
