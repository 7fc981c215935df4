// screenshot() and pdf() of the Deckhand class answer the file's bytes in each way of running: through
// the API, in this process on a local Chromium (env LOCAL), and in this process on a server's browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, DeckhandApiError, type DeckhandOptions } from '@deckhand/client';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

let server: TestServer;
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  server = await startTestServer({ ...ALLOW_FIXTURES });
});

afterAll(async () => {
  await server?.close();
  await fixtures?.close();
});

const launch = { headless: true, viewport: { width: 640, height: 480 } };
/** The server's URL is known only once it runs: the BROWSERBASE modes get it in the test. */
const modes: Array<[string, DeckhandOptions]> = [
  ['API', { env: 'BROWSERBASE', localBrowserLaunchOptions: launch }],
  ['LOCAL', { env: 'LOCAL', localBrowserLaunchOptions: launch }],
  ['useAPI: false', { env: 'BROWSERBASE', useAPI: false, localBrowserLaunchOptions: launch }],
];

const pngSize = (png: Buffer) => ({ magic: png.subarray(1, 4).toString('latin1'), width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe.each(modes)('Deckhand pictures (%s)', (_name, options) => {
  it('answers a screenshot of the page and of an element, and a PDF, as bytes', async () => {
    const deckhand = new Deckhand({ verbose: 0, ...options, ...(options.env === 'BROWSERBASE' ? { baseURL: server.url } : {}) });
    await deckhand.init();
    try {
      await deckhand.goto(fixtures.url('pictures.html'));
      expect(pngSize(await deckhand.screenshot())).toEqual({ magic: 'PNG', width: 640, height: 480 });
      expect(pngSize(await deckhand.screenshot({ selector: '#box' }))).toEqual({ magic: 'PNG', width: 200, height: 100 });
      const jpeg = await deckhand.screenshot({ type: 'jpeg', quality: 40, fullPage: true });
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect((await deckhand.pdf({ format: 'A4' })).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const missing = await deckhand.screenshot({ selector: '#nowhere' }).catch((error: unknown) => error);
      expect(String((missing as Error).message)).toContain('#nowhere');
      if (options.useAPI !== false && options.env === 'BROWSERBASE') expect(missing).toBeInstanceOf(DeckhandApiError);
    } finally {
      await deckhand.close();
    }
  });
});
