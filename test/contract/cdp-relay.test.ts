// The CDP relay, the only way into a session's browser: start replies and session records hand out a
// websocket URL on the server, joined to a DevTools channel of the session's browser (which listens on
// no port); its token is bound to the session and the project, and nothing else gets through. Attaching
// a session to a browser elsewhere (browser.cdpUrl) is limited to hosts the operator allows.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PROCESS_OWNER } from '../../packages/core/src/host/process-owner';
import { loadServerConfig } from '@deckhand/server';
import { driverFor } from '../support/drivers';
import { ALLOW_FIXTURES } from '../support/fixture-server';
import { expectError, expectOk, START_BODY, useContract } from '../support/contract';
import { pageText } from '../support/page-log';
import { startExternalChromium } from '../support/processes';
import { startTestServer } from '../support/test-server';

const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-relay-data-'));
const ctx = useContract({ DECKHAND_API_KEYS: 'key-a:project-a,key-b:project-b', DECKHAND_DATA_DIR: dataDir, ...ALLOW_FIXTURES }, { 'x-bb-api-key': 'key-a' });

async function start(api = ctx.api, body: Record<string, unknown> = START_BODY): Promise<{ id: string; cdpUrl: string }> {
  const reply = await api.call('startSession', { body });
  expectOk(reply);
  return { id: reply.body.data.sessionId, cdpUrl: reply.body.data.cdpUrl };
}

/** Sends a WebSocket handshake to `url` and reports the status it got (101 when it was relayed). */
function handshake(url: string): Promise<{ status: number; body: string; requestId?: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url.replace(/^ws/, 'http'));
    const req = request(target, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, requestId: res.headers['x-request-id'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CDP relay', () => {
  it('hands out a server URL that reaches the session page, in the start reply and the session record', async () => {
    const { id, cdpUrl } = await start();
    const server = new URL(ctx.server.url);
    expect(cdpUrl).toMatch(new RegExp(`^ws://${server.host}/v1/sessions/${id}/cdp\\?token=[\\w-]+\\.[\\w-]+$`));
    const record = await ctx.api.call('getBrowserSession', { id });
    expectOk(record);
    expect(record.body.connectUrl).toBe(cdpUrl);

    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') } }));
    const browser = await chromium.connectOverCDP(cdpUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      expect(page.url()).toBe(ctx.fixtures.url('forms.html'));
      await page.click('#go');
      expect(await pageText(ctx.api, id, '#log')).toBe('clicked: go');
    } finally {
      await browser.close();
    }
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it.each([
    ['in the project\'s shared browser', START_BODY],
    ['with a browser of its own', { ...START_BODY, browser: { type: 'local', launchOptions: { headless: true, locale: 'de-DE' } } }],
  ])('carries ordinary Playwright automation for a session %s; a download lands in the session\'s own directory', async (_where, body) => {
    const { id, cdpUrl } = await start(ctx.api, body);
    const browser = await chromium.connectOverCDP(cdpUrl);
    try {
      const page = await browser.contexts()[0]!.newPage();
      await page.goto(ctx.fixtures.url('forms.html'));
      await page.fill('#name', 'Ada');
      await page.click('#go');
      expect(await page.evaluate(() => [document.querySelector('#log')!.textContent, (document.querySelector('#name') as HTMLInputElement).value])).toEqual(['clicked: go', 'Ada']);
      expect((await page.screenshot()).subarray(1, 4).toString()).toBe('PNG');
      await page.goto(ctx.fixtures.url('download.html'));
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
      expect(download.suggestedFilename()).toBe('note.txt');
      // Saved on the server, in the session's downloads directory (Playwright named it for its own folder).
      const mine = join(dataDir, 'project-a', 'downloads', PROCESS_OWNER, id);
      const saved = () => readdirSync(mine).filter((name) => !name.endsWith('.crdownload'));
      await expect.poll(() => saved().map((name) => readFileSync(join(mine, name), 'utf8')), { timeout: 10_000 }).toEqual(['relay-download']);
      await page.close();
    } finally {
      await browser.close();
    }
    expectOk(await ctx.api.call('endSession', { id }));
    // The session's downloads go with it, as the browser's own downloads folder does.
    await expect.poll(() => existsSync(join(dataDir, 'project-a', 'downloads', PROCESS_OWNER, id)), { timeout: 10_000 }).toBe(false);
  });

  it('refuses a missing, forged or borrowed token with 401, and an ended session with 410', async () => {
    const a = await start();
    const b = await start();
    const url = new URL(a.cdpUrl);
    const token = url.searchParams.get('token')!;
    const [project, signature] = token.split('.');

    expect((await handshake(a.cdpUrl)).status).toBe(101);
    const refused = await handshake(a.cdpUrl.replace(/\?.*$/, ''));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ success: false, code: 'unauthorized' });
    expect(refused.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // The same signature claimed for another project, and a's token used for b's session.
    const forged = `${Buffer.from('project-b').toString('base64url')}.${signature}`;
    expect((await handshake(a.cdpUrl.replace(token, forged))).status).toBe(401);
    expect((await handshake(a.cdpUrl.replace(`/sessions/${a.id}/`, `/sessions/${b.id}/`))).status).toBe(401);
    expect(project).toBe(Buffer.from('project-a').toString('base64url'));
    // Malformed paths and ids are refused, not crashed on.
    expect((await handshake(a.cdpUrl.replace(`/sessions/${a.id}/`, '/sessions/%E0%A4%A/'))).status).toBe(401);
    expect((await handshake(`${ctx.server.url.replace(/^http/, 'ws')}/v1/elsewhere`)).status).toBe(404);

    expectOk(await ctx.api.call('endSession', { id: a.id }));
    const gone = await handshake(a.cdpUrl);
    expect(gone.status).toBe(410);
    expect(JSON.parse(gone.body)).toMatchObject({ code: 'session_gone' });
    expectOk(await ctx.api.call('endSession', { id: b.id }));
  });

  it('answers a plain GET with 426, no API key needed', async () => {
    const { id, cdpUrl } = await start();
    const anonymous = driverFor(ctx.server.url);
    const reply = await fetch(cdpUrl.replace(/^ws/, 'http'));
    expect(reply.status).toBe(426);
    expect(await reply.json()).toMatchObject({ success: false, code: 'upgrade_required' });
    expect(reply.headers.get('x-request-id')).toBeTruthy();
    // Everything else under /v1 still needs the key.
    expectError(await anonymous.call('replaySession', { id }), 401, 'unauthorized');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('builds URLs on DECKHAND_PUBLIC_URL when set (a reverse proxy in front, TLS, a path prefix)', async () => {
    const fronted = await startTestServer({ DECKHAND_PUBLIC_URL: 'https://deckhand.example.com/browser/' });
    try {
      const { id, cdpUrl } = await start(driverFor(fronted.url));
      expect(cdpUrl).toMatch(new RegExp(`^wss://deckhand\\.example\\.com/browser/v1/sessions/${id}/cdp\\?token=`));
      // What the reverse proxy forwards (prefix stripped) is accepted by the server.
      const local = cdpUrl.replace('wss://deckhand.example.com/browser', fronted.url.replace(/^http/, 'ws'));
      expect((await handshake(local)).status).toBe(101);
    } finally {
      await fronted.close();
    }
  });

  it('is the cdpUrl on a loopback server too, and an open server needs the token as well', async () => {
    const open = await startTestServer();
    try {
      const { id, cdpUrl } = await start(driverFor(open.url));
      expect(cdpUrl).toMatch(new RegExp(`^ws://${new URL(open.url).host}/v1/sessions/${id}/cdp\\?token=`));
      expect((await handshake(cdpUrl)).status).toBe(101);
      expect((await handshake(cdpUrl.replace(/\?.*$/, ''))).status).toBe(401);
    } finally {
      await open.close();
    }
  });

  it('refuses browser.cdpUrl attach when keys are configured, unless the operator allows the host', async () => {
    const external = await startExternalChromium();
    const allowing = await startTestServer({ DECKHAND_API_KEYS: 'key-a:project-a', DECKHAND_CDP_ATTACH_HOSTS: '127.0.0.1', ...ALLOW_FIXTURES });
    try {
      const body = { ...START_BODY, browser: { type: 'local', cdpUrl: external.cdpUrl } };
      const refused = await ctx.api.call('startSession', { body });
      expect(expectError(refused, 403, 'forbidden').message).toMatch(/DECKHAND_CDP_ATTACH_HOSTS/);
      expectError(await ctx.api.call('startSession', { body: { ...body, browser: { type: 'local', cdpUrl: 'file:///etc/passwd' } } }), 400, 'validation_error');

      const api = driverFor(allowing.url, { 'x-bb-api-key': 'key-a' });
      const reply = await api.call('startSession', { body });
      expectOk(reply);
      // Even for an attached browser the client gets the relay, never the browser's own URL.
      const { sessionId, cdpUrl } = reply.body.data;
      expect(cdpUrl).toMatch(new RegExp(`/v1/sessions/${sessionId}/cdp\\?token=`));
      expectOk(await api.call('navigate', { id: sessionId, body: { url: ctx.fixtures.url('forms.html') } }));
      const browser = await chromium.connectOverCDP(cdpUrl);
      try {
        expect(browser.contexts()[0]!.pages()[0]!.url()).toBe(ctx.fixtures.url('forms.html'));
      } finally {
        await browser.close();
      }
      expectOk(await api.call('endSession', { id: sessionId }));
    } finally {
      await allowing.close();
      await external.close();
    }
  });

  it('validates DECKHAND_PUBLIC_URL', () => {
    expect(() => loadServerConfig({ DECKHAND_PUBLIC_URL: 'deckhand.example.com' })).toThrow(/DECKHAND_PUBLIC_URL/);
  });
});
