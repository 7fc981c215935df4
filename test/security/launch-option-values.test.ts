// Launch option values the browser would choke on are the caller's mistake: a 400 naming the field,
// answered before any browser starts (they used to be 503 browser_unavailable with Playwright's words).
import { describe, expect, it } from 'vitest';
import { START_BODY, expectError, expectOk, useContract } from '../support/contract';

const ctx = useContract();

const startWith = (launchOptions: Record<string, unknown>) =>
  ctx.api.call('startSession', { body: { ...START_BODY, browser: { type: 'local', launchOptions: { headless: true, ...launchOptions } } } });

describe('launch option values', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a locale of emoji', { locale: '😀😀' }, 'body.browser.launchOptions.locale'],
    ['a NUL byte in the locale', { locale: 'en\u0000US' }, 'body.browser.launchOptions.locale'],
    // Well-formed to a loose pattern, refused by Chromium (a duplicate variant; a 4-letter language).
    ['a locale Chromium refuses', { locale: 'de-1996-1996' }, 'body.browser.launchOptions.locale'],
    ['a 4-letter language', { locale: 'root' }, 'body.browser.launchOptions.locale'],
    ['a 300 KB proxy bypass', { proxy: { server: 'http://127.0.0.1:9', bypass: 'a,'.repeat(150_000) } }, 'body.browser.launchOptions.proxy.bypass'],
    ['a NUL byte in the proxy server', { proxy: { server: 'http://127.0.0.1:9\u0000' } }, 'body.browser.launchOptions.proxy.server'],
    ['a control character in the proxy password', { proxy: { server: 'http://127.0.0.1:9', username: 'u', password: 'p\r\nx' } }, 'body.browser.launchOptions.proxy.password'],
    ['a connectTimeoutMs of 1e300', { connectTimeoutMs: 1e300 }, 'body.browser.launchOptions.connectTimeoutMs'],
    ['a NUL byte in cdpUrl', { cdpUrl: 'ws://127.0.0.1:9/\u0000' }, 'body.browser.launchOptions.cdpUrl'],
    // Found by the fuzz test: a proxy host that does not resolve was a 503.
    ['a proxy server that does not resolve', { proxy: { server: 'http://no-such-proxy.invalid:8080' } }, 'browser.launchOptions.proxy.server'],
  ];
  for (const [what, launchOptions, path] of cases) {
    it(`refuses ${what} with a 400 naming the field`, async () => {
      const error = expectError(await startWith(launchOptions), 400, 'validation_error');
      expect(error.issues!.map((i) => i.path)).toContain(path);
    });
  }

  it('still starts with ordinary values', async () => {
    const reply = await startWith({ locale: 'zh-Hant-TW-x-private', connectTimeoutMs: 20_000, viewport: { width: 800, height: 600 } });
    expectOk(reply);
    await ctx.api.call('endSession', { id: reply.body.data.sessionId, body: {} });
  });
});
