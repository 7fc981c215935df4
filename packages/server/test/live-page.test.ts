// The live session page behind sessionUrl, in a real second Chromium: it shows the session's page
// and its operations as they happen, needs no API key, and refuses a wrong, foreign or CDP token;
// its view token opens no DevTools connection.
import { chromium, type Browser } from 'playwright-core';
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
    const { sessionId, sessionUrl, cdpUrl, debugUrl } = await startOnForms();
    expect(new URL(sessionUrl).pathname).toBe(`/v1/sessions/${sessionId}/live`);
    expect(debugUrl).toBe(cdpUrl);

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

    expect((await api(`${sessionId}/end`, {})).status).toBe(200);
    await expect.poll(() => page.locator('#status').innerText()).toBe('session ended');
    await page.close();
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
