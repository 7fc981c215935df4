// The client wrapper against a real server: streams by default, reports log lines, returns `data`,
// and turns error bodies (before or inside a stream) into DeckhandApiError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeckhandClient, DeckhandApiError, type DeckhandClient } from '@deckhand/client';
import { START_BODY } from '../../../test/support/contract';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { closedPortUrl } from '../../../test/support/closed-port';

let server: TestServer;
let fixtures: FixtureServer;
let client: DeckhandClient;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  server = await startTestServer({ DECKHAND_API_KEYS: 'client-key:client-project', ...ALLOW_FIXTURES });
  client = createDeckhandClient({ baseUrl: server.url, apiKey: 'client-key' });
});

afterAll(async () => {
  await server?.close();
  await fixtures?.close();
});

describe('client wrapper', () => {
  it('drives a session end to end, streaming with log lines by default', async () => {
    const { sessionId, cdpUrl, session } = await client.start(START_BODY);
    expect(session.id).toBe(sessionId);
    expect(cdpUrl).toMatch(/^ws:/);
    const lines: string[] = [];
    const navigated = await session.navigate({ url: fixtures.url('forms.html') }, { onLog: (line) => lines.push(line.message) });
    expect(navigated.result?.response.status).toBe(200);
    expect(lines.some((line) => line.includes('navigated'))).toBe(true);
    const acted = await session.act({ input: { selector: '#go', method: 'click' } });
    expect(acted.result.success).toBe(true);
    const extracted = await session.extract({ options: { selector: '#log' } }, { stream: false });
    expect(extracted.result).toEqual({ pageText: 'clicked: go' });
    const replay = await session.replay();
    expect(replay.pages.flatMap((p) => p.actions.map((a) => a.method))).toEqual(['navigate', 'act', 'extract']);
    expect(await session.end()).toEqual({ success: true });
  });

  it('throws DeckhandApiError for an error answer and for an error event in a stream', async () => {
    const gone = client.session('no-such-session');
    const notFound = await gone.replay().catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(DeckhandApiError);
    expect(notFound).toMatchObject({ status: 404, code: 'session_not_found' });

    const { session } = await client.start({ modelName: 'builtin/offline' });
    const failed = await session.navigate({ url: await closedPortUrl() }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 200, code: 'navigation_failed' });
    await session.end();

    const anonymous = createDeckhandClient({ baseUrl: server.url });
    await expect(anonymous.start({ modelName: 'builtin/offline' })).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});
