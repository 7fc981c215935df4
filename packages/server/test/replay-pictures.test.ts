// The replay of an ended session on the live page, in a real second Chromium: each operation's picture,
// stepped through with Previous/Next or by its row, shows the page as that operation left it; captions
// carry no variable value. And the cost side: a session with DECKHAND_REPLAY_PICTURES=0 keeps none.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '@deckhand/core';
import { START_BODY } from '../../../test/support/contract';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

const SECRET = 'hunter2-not-in-captions';
let server: TestServer;
let fixtures: FixtureServer;
let viewer: Browser;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  server = await startTestServer({ ...ALLOW_FIXTURES });
  viewer = await chromium.launch({ executablePath: findChromium(true), headless: true });
});

afterAll(async () => {
  await viewer?.close();
  await server?.close();
  await fixtures?.close();
});

async function api(base: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/v1/sessions/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

/** The three operations of the scenario: open the page, type a variable, click the box (the page turns red). */
async function runSession(base: string): Promise<{ sessionId: string; sessionUrl: string }> {
  const started = await api(base, 'start', { ...START_BODY, browser: { type: 'local', launchOptions: { headless: true, viewport: { width: 800, height: 600 } } } });
  const { sessionId, sessionUrl } = started.data;
  await api(base, `${sessionId}/navigate`, { url: fixtures.url('pictures.html') });
  await api(base, `${sessionId}/act`, { input: { selector: '#note', method: 'fill', arguments: ['%pw%'], description: 'the note' }, options: { variables: { pw: SECRET } } });
  await api(base, `${sessionId}/act`, { input: { selector: '#box', method: 'click', arguments: [], description: 'the box' } });
  await api(base, `${sessionId}/end`, {});
  return { sessionId, sessionUrl };
}

/** The colour the viewer shows at the middle of the picture on screen. */
function middleColour(page: Page): Promise<[number, number, number]> {
  return page.locator('#screen').evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0);
    const [r, g, b] = context.getImageData(img.naturalWidth / 2, img.naturalHeight / 2, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  });
}
const isRed = ([r, g, b]: [number, number, number]) => r > 150 && g < 80 && b < 80;

describe('replay pictures on the live page', () => {
  it('steps through an ended session picture by picture, each showing the page as its operation left it', async () => {
    const { sessionUrl } = await runSession(server.url);
    const page = await viewer.newPage();
    try {
      await page.goto(sessionUrl);
      await expect.poll(() => page.locator('#status').innerText()).toBe('session ended');
      await expect(page.locator('#steps').isVisible()).resolves.toBe(true);
      // It opens on the last step: the click that turned the page red.
      await expect.poll(() => page.locator('#step').innerText()).toBe('Step 3 of 3: #3 act');
      await expect.poll(() => middleColour(page).then(isRed)).toBe(true);

      await page.locator('#prev').click();
      await expect.poll(() => page.locator('#step').innerText()).toBe('Step 2 of 3: #2 act');
      await expect.poll(() => middleColour(page).then(isRed)).toBe(false);
      await page.locator('#prev').click();
      await expect.poll(() => page.locator('#step').innerText()).toBe('Step 1 of 3: #1 navigate');
      expect(await page.locator('#prev').isDisabled()).toBe(true);
      expect(await page.locator('#log tr.selected td').first().innerText()).toBe('1');

      // A row is a step too.
      await page.locator('#log tr').nth(2).click();
      await expect.poll(() => page.locator('#step').innerText()).toBe('Step 3 of 3: #3 act');
      await expect.poll(() => middleColour(page).then(isRed)).toBe(true);
      expect(await page.locator('#next').isDisabled()).toBe(true);

      // The captions and log name the variable, never its value.
      const text = await page.locator('body').innerText();
      expect(text).toContain('%pw%');
      expect(text).not.toContain(SECRET);
    } finally {
      await page.close();
    }
  });

  it('keeps no pictures with DECKHAND_REPLAY_PICTURES=0, and the ended page shows its log without steps', async () => {
    const off = await startTestServer({ ...ALLOW_FIXTURES, DECKHAND_REPLAY_PICTURES: '0' });
    try {
      const { sessionId, sessionUrl } = await runSession(off.url);
      const token = new URL(sessionUrl).searchParams.get('token')!;
      const state = await (await fetch(`${off.url}/v1/sessions/${sessionId}/live/state?token=${token}`)).json();
      expect(state.actions.map((a: { picture?: number }) => a.picture)).toEqual([undefined, undefined, undefined]);
      expect((await fetch(`${off.url}/v1/sessions/${sessionId}/live/picture?token=${token}&step=1`)).status).toBe(404);
      const page = await viewer.newPage();
      await page.goto(sessionUrl);
      await expect.poll(() => page.locator('#status').innerText()).toBe('session ended');
      expect(await page.locator('#log tr').count()).toBe(3);
      expect(await page.locator('#steps').isVisible()).toBe(false);
      await page.close();
    } finally {
      await off.close();
    }
  });
});
