// The API reference at /docs, in a real Chromium: the renderer (served from its npm package) shows the
// operations of openapi.yaml with the Markdown of their descriptions rendered, and no request leaves
// loopback (nothing from a CDN, no fonts, no telemetry). With DECKHAND_WRITE_SCREENSHOTS=1 it writes
// docs/api-reference.png.
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '@deckhand/core';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await chromium.launch({ executablePath: findChromium(true), headless: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const SCREENSHOT = fileURLToPath(new URL('../../../docs/api-reference.png', import.meta.url));

describe('API reference at /docs', () => {
  it('renders the operations and the Markdown of their descriptions, with every request on loopback', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (/Refused to|Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const response = await page.goto(`${server.url}/docs`);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("connect-src 'self'");

    // Operation names from openapi.yaml's summaries.
    for (const summary of ['Start a session', 'Prometheus metrics', 'Liveness']) {
      await expect.poll(() => page.getByText(summary, { exact: true }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    }
    // The info description's **Streaming.** and `x-stream-response: true`, as HTML, not raw Markdown.
    await expect.poll(() => page.locator('strong', { hasText: 'Streaming.' }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('code', { hasText: 'x-stream-response: true' }).count()).toBeGreaterThan(0);
    expect(await page.locator('body').innerText()).not.toContain('**Streaming.**');
    // An operation's example: /metrics's sample exposition.
    await page.getByText('health', { exact: true }).first().click();
    await page.getByText('Prometheus metrics', { exact: true }).first().click();
    await expect.poll(() => page.getByText('deckhand_sessions{state="ready"} 2').count()).toBeGreaterThan(0);
    await page.goto(`${server.url}/docs`);
    await expect.poll(() => page.locator('strong', { hasText: 'Streaming.' }).count()).toBeGreaterThan(0);

    // The README's picture, written only when asked (so a test run leaves the checkout as it was).
    const picture = await page.screenshot(process.env.DECKHAND_WRITE_SCREENSHOTS ? { path: SCREENSHOT } : {});
    expect(picture.subarray(1, 4).toString()).toBe('PNG');
    expect(requested.length).toBeGreaterThan(0);
    for (const url of requested) expect(['127.0.0.1', 'data:', 'blob:'].some((origin) => new URL(url).hostname === origin || url.startsWith(origin)), url).toBe(true);
    expect(refused).toEqual([]);
    await page.close();
    // The renderer parses the whole contract in the page: seconds on a loaded machine.
  }, 90_000);

  it('serves the renderer from the installed package, cacheable, and the contract beside it', async () => {
    const script = await fetch(`${server.url}/docs/api-reference.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cache-control')).toContain('max-age');
    expect(await script.text()).toContain('@scalar/api-reference@');
  });
});
