// The published @browserbasehq/stagehand 3.x client, unchanged, in its BROWSERBASE mode against
// Deckhand: it starts a session through the API, finds the browser through the Browserbase-style
// session record, drives the page, and ends the session. The server hands out CDP URLs through its
// proxy, as a server bound beyond loopback does, so the client reaches the browser via Deckhand.
// And what the README's "Coming from Stagehand" section tells its users: on the default keyless server,
// the two URLs and `model: "auto"` (the offline model, which the client would refuse by its own name).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stagehand } from '@browserbasehq/stagehand';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let open: TestServer;
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  server = await startTestServer({ DECKHAND_API_KEYS: 'sh-key:sh-project', DECKHAND_CDP_PROXY: 'on', ...ALLOW_FIXTURES });
  open = await startTestServer(ALLOW_FIXTURES);
});

afterAll(async () => {
  await server?.close();
  await open?.close();
  await fixtures?.close();
});

/** The two URLs the README tells Stagehand users to set, pointed at `target`. */
function pointAt(target: TestServer): void {
  process.env.STAGEHAND_API_URL = target.url;
  process.env.BROWSERBASE_BASE_URL = target.url;
}

describe('published Stagehand client', () => {
  it('runs start → goto → act → extract → end against Deckhand', async () => {
    pointAt(server);
    const stagehand = new Stagehand({
      env: 'BROWSERBASE',
      apiKey: 'sh-key',
      projectId: 'sh-project',
      model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-unused-by-these-calls' },
      verbose: 0,
      disablePino: true,
    });
    await stagehand.init();
    const sessionId = stagehand.browserbaseSessionID!;
    try {
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const page = stagehand.context.pages()[0]!;
      await page.goto(fixtures.url('forms.html'));
      const acted = await stagehand.act({ selector: '#go', method: 'click', description: 'the Go button', arguments: [] });
      expect(acted.success).toBe(true);
      const extracted = (await stagehand.extract()) as { pageText: string };
      expect(extracted.pageText).toContain('clicked: go');
      // Its own page.screenshot (CDP Page.captureScreenshot through the relay) is a PNG.
      expect((await page.screenshot()).subarray(1, 4).toString('latin1')).toBe('PNG');
      const replay = await fetch(`${server.url}/v1/sessions/${sessionId}/replay`, { headers: { 'x-bb-api-key': 'sh-key' } });
      const pages = (await replay.json()).data.pages as Array<{ actions: Array<{ method: string }> }>;
      expect(pages.flatMap((p) => p.actions.map((a) => a.method))).toEqual(expect.arrayContaining(['navigate', 'act', 'extract']));
    } finally {
      await stagehand.close();
    }
    const ended = await fetch(`${server.url}/v1/sessions/${sessionId}/replay`, { headers: { 'x-bb-api-key': 'sh-key' } });
    expect(ended.status).toBe(410);
  });

  it('refuses the name builtin/offline before sending anything', () => {
    expect(() => new Stagehand({ env: 'BROWSERBASE', apiKey: 'any', model: 'builtin/offline', verbose: 0, disablePino: true })).toThrow(/builtin/);
  });

  it('reaches the offline model as model "auto" on the default keyless server, natural language included', async () => {
    pointAt(open);
    // The client needs some key to start; a keyless server takes any.
    const stagehand = new Stagehand({ env: 'BROWSERBASE', apiKey: 'unused', model: 'auto', verbose: 0, disablePino: true });
    await stagehand.init();
    const sessionId = stagehand.browserbaseSessionID!;
    try {
      // The README's steps, on the server's own demo page.
      await stagehand.context.pages()[0]!.goto(`${open.url}/demo`);
      const acted = await stagehand.act('click the Say hello button');
      expect(acted.success).toBe(true);
      const observed = await stagehand.observe('the Learn more link');
      expect(observed).toEqual([expect.objectContaining({ method: 'click', description: expect.stringContaining('Learn more') })]);
      expect(((await stagehand.extract()) as { pageText: string }).pageText).toContain('Hello, stranger!');
      // Each ran on the server (its replay has them), not in the client.
      const replay = await fetch(`${open.url}/v1/sessions/${sessionId}/replay`);
      const pages = (await replay.json()).data.pages as Array<{ actions: Array<{ method: string }> }>;
      expect(pages.flatMap((p) => p.actions.map((a) => a.method))).toEqual(expect.arrayContaining(['act', 'observe', 'extract']));
    } finally {
      await stagehand.close();
    }
  });
});
