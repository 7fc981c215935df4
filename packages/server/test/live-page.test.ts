// The live session page behind sessionUrl, in a real second Chromium: it shows the session's page
// and its operations as they happen, and after the end its final log and last picture; it needs no
// API key, and refuses a wrong, foreign or CDP token; its view token opens no DevTools connection.
// debugUrl: a DevTools front end on a one-time page-level websocket that runs commands on the
// session's page, refused with any other token.
import { chromium, type Browser } from 'playwright-core';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '@deckhand/core';
import { START_BODY } from '../../../test/support/contract';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

const KEY = 'live-page-key';
let server: TestServer;
let fixtures: FixtureServer;
let viewer: Browser;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  server = await startTestServer({ DECKHAND_API_KEYS: `${KEY}:live-project,other-key:other-project`, ...ALLOW_FIXTURES });
  viewer = await chromium.launch({ executablePath: findChromium(true), headless: true });
});

afterAll(async () => {
  await viewer?.close();
  await server?.close();
  await fixtures?.close();
});

async function api(path: string, body?: unknown, key = KEY) {
  const response = await fetch(`${server.url}/v1/sessions/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-bb-api-key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function startOnForms(key = KEY) {
  const started = await api('start', START_BODY, key);
  expect(started.status).toBe(200);
  const { sessionId, sessionUrl, cdpUrl, debugUrl } = started.body.data as Record<string, string>;
  expect((await api(`${sessionId}/navigate`, { url: fixtures.url('forms.html') }, key)).status).toBe(200);
  return { sessionId: sessionId!, sessionUrl: sessionUrl!, cdpUrl: cdpUrl!, debugUrl: debugUrl! };
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe('live session page', () => {
  it('shows new frames and new log rows as operations run, without an API key', async () => {
    const { sessionId, sessionUrl } = await startOnForms();
    expect(new URL(sessionUrl).pathname).toBe(`/v1/sessions/${sessionId}/live`);

    const page = await viewer.newPage();
    const response = await page.goto(sessionUrl);
    expect(response!.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(response!.headers()['referrer-policy']).toBe('no-referrer');
    expect(await response!.text()).not.toContain(KEY);

    const rows = page.locator('#log tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.nth(0).innerText()).toMatch(/navigate\s+\S*forms\.html\s+ok/);
    await expect.poll(() => page.locator('#url').innerText()).toBe(fixtures.url('forms.html'));
    await expect.poll(() => page.locator('#screen').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    const frame = await fetch(`${server.url}/v1/sessions/${sessionId}/live/frame?token=${encodeURIComponent(tokenOf(sessionUrl))}`);
    expect(frame.headers.get('content-type')).toBe('image/jpeg');
    // What the page shows, as pixels (frames of an unchanged page are the same picture).
    const shown = () =>
      page.locator('#screen').evaluate((img: HTMLImageElement) => {
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        canvas.getContext('2d')!.drawImage(img, 0, 0);
        return canvas.toDataURL('image/png');
      });
    const before = await shown();

    expect((await api(`${sessionId}/act`, { input: { selector: '#go', method: 'click', description: 'the Go button' } })).status).toBe(200);
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => rows.nth(1).innerText()).toMatch(/act\s+.*ok/);
    // the picture the page shows now is of the page after the click
    await expect.poll(shown).not.toBe(before);

    // One more operation, then the end: the page keeps the final log and shows the last picture.
    expect((await api(`${sessionId}/act`, { input: { selector: '#name', method: 'fill', arguments: ['Ada'], description: 'the name' } })).status).toBe(200);
    await expect.poll(() => rows.count()).toBe(3);
    const beforeEnd = await shown();
    expect((await api(`${sessionId}/end`, {})).status).toBe(200);
    await expect.poll(() => page.locator('#status').innerText()).toBe('session ended');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(2).innerText()).toMatch(/act\s+.*ok/);

    // A fresh viewer of the finished session: the same log and a last picture, the token still checked.
    const later = await viewer.newPage();
    await later.goto(sessionUrl);
    await expect.poll(() => later.locator('#status').innerText()).toBe('session ended');
    expect(await later.locator('#log tr').count()).toBe(3);
    expect(await later.locator('#url').innerText()).toBe(fixtures.url('forms.html'));
    await expect.poll(() => later.locator('#screen').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(beforeEnd).toMatch(/^data:image\/png/);
    const state = await fetch(`${server.url}/v1/sessions/${sessionId}/live/state?token=${encodeURIComponent(tokenOf(sessionUrl))}`);
    expect(await state.json()).toMatchObject({ ended: 'ended', url: fixtures.url('forms.html'), actions: [{ method: 'navigate' }, { method: 'act' }, { method: 'act' }] });
    expect((await fetch(`${server.url}/v1/sessions/${sessionId}/live/state?token=${encodeURIComponent(tokenOf(sessionUrl))}x`)).status).toBe(401);
    await later.close();
    await page.close();
  });

  for (const watched of [false, true]) {
    it(`a session whose page is frozen still ends (${watched ? 'watched' : 'unwatched'}), and its finished page shows the log`, async () => {
      const started = await api('start', START_BODY);
      const { sessionId, sessionUrl } = started.body.data as Record<string, string>;
      expect((await api(`${sessionId}/navigate`, { url: fixtures.url('freeze.html') })).status).toBe(200);
      // The click never returns (the page loops in its handler): the page's main thread is stuck.
      expect([200, 408]).toContain((await api(`${sessionId}/act`, { input: { selector: '#freeze', method: 'click' }, options: { timeout: 1000 } })).status);
      const token = encodeURIComponent(tokenOf(sessionUrl!));
      if (watched) await fetch(`${server.url}/v1/sessions/${sessionId}/live/frame?token=${token}`);
      expect((await api(`${sessionId}/end`, {})).status).toBe(200);
      const state = await fetch(`${server.url}/v1/sessions/${sessionId}/live/state?token=${token}`);
      expect(await state.json()).toMatchObject({ ended: 'ended', actions: [{ method: 'navigate' }, { method: 'act' }] });
    });
  }

  it('wraps a long instruction in the What column at word boundaries, never inside a word', async () => {
    const { sessionId, sessionUrl } = await startOnForms();
    const instruction = 'click the wonderfully understated confirmation button hiding somewhere underneath the extraordinarily lengthy registration questionnaire';
    expect((await api(`${sessionId}/act`, { input: instruction })).status).toBe(200);
    const page = await viewer.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(sessionUrl);
    const cell = page.locator('#log tr').nth(1).locator('td.what');
    await expect.poll(() => cell.innerText()).toBe(instruction);
    // Each word's characters on one line (one client rect), and the cell on several lines.
    const layout = await cell.evaluate((td) => {
      const text = td.firstChild!;
      const words = [...text.textContent!.matchAll(/\S+/g)].map((match) => {
        const range = document.createRange();
        range.setStart(text, match.index!);
        range.setEnd(text, match.index! + match[0].length);
        return { word: match[0], lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
      });
      const whole = document.createRange();
      whole.selectNodeContents(td);
      return { split: words.filter((w) => w.lines > 1).map((w) => w.word), lines: new Set([...whole.getClientRects()].map((rect) => Math.round(rect.top))).size };
    });
    expect(layout.lines).toBeGreaterThan(1);
    expect(layout.split).toEqual([]);
    await page.close();
  });

  it('a picture or state the end overtakes answers from the last look, never a 500', async () => {
    const { sessionId, sessionUrl } = await startOnForms();
    const token = encodeURIComponent(tokenOf(sessionUrl));
    const base = `${server.url}/v1/sessions/${sessionId}/live`;
    await fetch(`${base}/frame?token=${token}`);
    // Two pictures at once: as many as DECKHAND_LIVE_FRAMES_PER_SESSION lets one session take.
    const reads = Array.from({ length: 4 }, (_, i) => fetch(`${base}/${i % 2 ? 'state' : 'frame'}?token=${token}`).then((r) => r.status));
    expect((await api(`${sessionId}/end`, {})).status).toBe(200);
    expect(await Promise.all(reads)).toEqual([200, 200, 200, 200]);
  });

  it('a finished session nobody watched shows its final log and has no last picture', async () => {
    const { sessionId, sessionUrl } = await startOnForms();
    expect((await api(`${sessionId}/end`, {})).status).toBe(200);
    const token = encodeURIComponent(tokenOf(sessionUrl));
    const state = await fetch(`${server.url}/v1/sessions/${sessionId}/live/state?token=${token}`);
    expect(await state.json()).toMatchObject({ ended: 'ended', actions: [{ method: 'navigate' }] });
    const frame = await fetch(`${server.url}/v1/sessions/${sessionId}/live/frame?token=${token}`);
    expect(frame.status).toBe(410);
    expect((await fetch(`${server.url}/v1/sessions/${sessionId}/replay`, { headers: { 'x-bb-api-key': KEY } })).status).toBe(410);
  });

  it('refuses a wrong token, another session\'s token and the CDP token; the view token opens no CDP connection', async () => {
    const mine = await startOnForms();
    const theirs = await startOnForms('other-key');
    const live = (token: string) => fetch(`${server.url}/v1/sessions/${mine.sessionId}/live?token=${encodeURIComponent(token)}`);
    expect((await live(tokenOf(mine.sessionUrl))).status).toBe(200);
    for (const token of ['garbage', `${tokenOf(mine.sessionUrl)}x`, tokenOf(theirs.sessionUrl), tokenOf(mine.cdpUrl)]) {
      const refused = await live(token);
      expect(refused.status, token).toBe(401);
      expect(await refused.json()).toMatchObject({ success: false, code: 'unauthorized' });
      const state = await fetch(`${server.url}/v1/sessions/${mine.sessionId}/live/state?token=${encodeURIComponent(token)}`);
      expect(state.status).toBe(401);
    }
    expect((await fetch(`${server.url}/v1/sessions/${mine.sessionId}/live`)).status).toBe(400);

    const viewAsCdp = mine.cdpUrl.replace(/token=[^&]+/, `token=${encodeURIComponent(tokenOf(mine.sessionUrl))}`);
    await expect(chromium.connectOverCDP(viewAsCdp, { timeout: 10_000 })).rejects.toThrow();

    await api(`${mine.sessionId}/end`, {});
    await api(`${theirs.sessionId}/end`, {}, 'other-key');
  });
});

/** Opens a websocket; resolves to the open socket, or to the HTTP status it was refused with. */
function openSocket(url: string): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', reject);
  });
}

/** One CDP command on a page-level connection (no sessionId: the page is the connection). */
function command(socket: WebSocket, id: number, method: string, params: Record<string, unknown> = {}): Promise<any> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString());
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, method, params }));
  });
}

describe('debugUrl', () => {
  /** Where the front end would connect: the debugUrl's redirect, read without following it. */
  async function frontEnd(debugUrl: string) {
    const response = await fetch(debugUrl, { redirect: 'manual' });
    expect(response.status).toBe(302);
    // Said in the redirect itself: the front end comes from the internet.
    expect(await response.text()).toContain('needs internet access');
    const location = new URL(response.headers.get('location')!);
    return { location, socketUrl: `ws://${location.searchParams.get('ws')}` };
  }

  it('leads to the DevTools front end of the browser\'s revision on a one-time page connection that runs commands on the session\'s page', async () => {
    const { sessionId, debugUrl, sessionUrl } = await startOnForms();
    expect(debugUrl).toMatch(new RegExp(`^${server.url}/v1/sessions/${sessionId}/devtools\\?token=[\\w-]+\\.[\\w-]+$`));
    const { location, socketUrl } = await frontEnd(debugUrl);
    expect(`${location.origin}${location.pathname}`).toMatch(/^https:\/\/chrome-devtools-frontend\.appspot\.com\/serve_rev\/@[0-9a-f]{40}\/inspector\.html$/);
    expect(socketUrl).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/v1/sessions/${sessionId}/devtools\\?ticket=[\\w-]+$`));
    expect(location.href).not.toContain(tokenOf(debugUrl));

    const socket = await openSocket(socketUrl);
    if (typeof socket === 'number') throw new Error(`refused with ${socket}`);
    const evaluated = await command(socket, 1, 'Runtime.evaluate', { expression: 'document.title = "seen by devtools"; location.href', returnByValue: true });
    expect(evaluated.result.result.value).toBe(fixtures.url('forms.html'));
    expect(evaluated.sessionId).toBeUndefined();
    // It was the session's own page: the live state (which reads the session's page) sees the new title.
    const state = await fetch(`${server.url}/v1/sessions/${sessionId}/live/state?token=${encodeURIComponent(tokenOf(sessionUrl))}`);
    expect((await state.json()).title).toBe('seen by devtools');
    socket.close();

    // The ticket opened one connection; it opens no second.
    expect(await openSocket(socketUrl)).toBe(401);
    await api(`${sessionId}/end`, {});
    expect((await fetch(debugUrl, { redirect: 'manual' })).status).toBe(410);
  });

  it('passes through the child sessions the front end attaches itself (an out-of-process iframe)', async () => {
    const { sessionId, debugUrl } = await startOnForms();
    expect((await api(`${sessionId}/navigate`, { url: fixtures.url('cross-iframe.html') })).status).toBe(200);
    const socket = await openSocket((await frontEnd(debugUrl)).socketUrl);
    if (typeof socket === 'number') throw new Error(`refused with ${socket}`);
    const attached = new Promise<any>((resolve) =>
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString());
        if (message.method === 'Target.attachedToTarget' && message.params.targetInfo.type === 'iframe') resolve(message);
      }),
    );
    await command(socket, 1, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
    const child = await attached;
    // The event came on the page connection itself (no sessionId), naming the child's own session.
    expect(child.sessionId).toBeUndefined();
    const inFrame = await new Promise<any>((resolve) => {
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString());
        if (message.id === 2) resolve(message);
      });
      socket.send(JSON.stringify({ id: 2, sessionId: child.params.sessionId, method: 'Runtime.evaluate', params: { expression: 'location.href', returnByValue: true } }));
    });
    expect(inFrame).toMatchObject({ sessionId: child.params.sessionId, result: { result: { value: `${fixtures.crossOrigin}/frame-inner.html` } } });
    socket.close();
    await api(`${sessionId}/end`, {});
  });

  it('refuses a wrong token, another session\'s, the view and CDP tokens, and a token in place of a ticket', async () => {
    const mine = await startOnForms();
    const theirs = await startOnForms('other-key');
    const devtools = (token: string) => fetch(`${server.url}/v1/sessions/${mine.sessionId}/devtools?token=${encodeURIComponent(token)}`, { redirect: 'manual' });
    for (const token of ['garbage', `${tokenOf(mine.debugUrl)}x`, tokenOf(theirs.debugUrl), tokenOf(mine.sessionUrl), tokenOf(mine.cdpUrl)]) {
      const refused = await devtools(token);
      expect(refused.status, token).toBe(401);
      expect(await refused.json()).toMatchObject({ success: false, code: 'unauthorized' });
    }
    const socketBase = `ws://${new URL(server.url).host}/v1/sessions/${mine.sessionId}/devtools`;
    expect(await openSocket(`${socketBase}?token=${encodeURIComponent(tokenOf(mine.debugUrl))}`)).toBe(401);
    expect(await openSocket(`${socketBase}?ticket=nope`)).toBe(401);
    // Another session's ticket opens nothing here.
    const { socketUrl } = await frontEnd(theirs.debugUrl);
    expect(await openSocket(socketUrl.replace(theirs.sessionId, mine.sessionId))).toBe(401);

    await api(`${mine.sessionId}/end`, {});
    await api(`${theirs.sessionId}/end`, {}, 'other-key');
  });
});
