// The Deckhand class's files, cookies, storage state and sessions list, the same in API mode and in env
// LOCAL: a file sent and set on a file field, a download fetched, a login carried to a second client by
// the storageState option, and the project's sessions listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand } from '@deckhand/client';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

let server: TestServer;
let fixtures: FixtureServer;
const KEY = 'session-data-key';

beforeAll(async () => {
  fixtures = await startFixtureServer();
  server = await startTestServer({ DECKHAND_API_KEYS: `${KEY}:session-data`, ...ALLOW_FIXTURES });
});

afterAll(async () => {
  await server?.close();
  await fixtures?.close();
});

const modes: Array<[string, (extra?: Record<string, unknown>) => Deckhand]> = [
  ['API', (extra = {}) => new Deckhand({ env: 'BROWSERBASE', apiKey: KEY, baseURL: server.url, verbose: 0, localBrowserLaunchOptions: { headless: true }, ...extra })],
  ['LOCAL', (extra = {}) => new Deckhand({ env: 'LOCAL', verbose: 0, enableCaching: false, localBrowserLaunchOptions: { headless: true }, ...extra })],
];

describe.each(modes)('%s', (mode, make) => {
  it('sends a file and sets it on a file field; fetches and deletes a download', async () => {
    const client = make();
    await client.init();
    try {
      await client.goto(fixtures.url('upload.html'));
      expect(await client.upload('report.pdf', new TextEncoder().encode('%PDF-1.4'))).toMatchObject({ name: 'report.pdf', size: 8, mimeType: 'application/pdf' });
      expect((await client.files()).map((f) => f.name)).toEqual(['report.pdf']);
      const set = await client.act({ selector: '#attachment', method: 'setInputFiles', arguments: ['report.pdf'], description: 'Attachment' });
      expect(set.success).toBe(true);
      expect(await client.extract(undefined, undefined, { selector: '#log' })).toMatchObject({ pageText: expect.stringContaining('chose: report.pdf 8') });
      await client.deleteFile('report.pdf');
      expect(await client.files()).toEqual([]);

      await client.goto(fixtures.url('download.html'));
      await client.act({ selector: '#save', method: 'click', arguments: [], description: 'Save the note' });
      expect((await client.downloads()).map((f) => f.name)).toEqual(['note.txt']);
      expect(new TextDecoder().decode(await client.download('note.txt'))).toBe('relay-download');
      await client.deleteDownload('note.txt');
      await expect(client.download('note.txt')).rejects.toMatchObject({ code: 'file_not_found' });
    } finally {
      await client.close();
    }
  });

  it('carries a login to another client with the storageState option; lists the sessions', async () => {
    const first = make();
    await first.init();
    const second = make();
    try {
      await first.goto(fixtures.url('login.html'));
      await first.act({ selector: '#user', method: 'fill', arguments: ['Grace'], description: 'User' });
      await first.act({ selector: '#sign-in', method: 'click', arguments: [], description: 'Sign in' });
      const state = await first.storageState();
      expect((await first.cookies()).map((c) => c.name)).toContain('login');

      await second.init();
      expect(await second.setStorageState(state)).toMatchObject({ cookies: [expect.objectContaining({ name: 'login', value: 'Grace' })] });
      await second.goto(fixtures.url('login.html'));
      expect(await second.extract(undefined, undefined, { selector: '#status' })).toEqual({ pageText: 'Signed in as Grace' });
      const third = make({ storageState: state });
      await third.init();
      await third.goto(fixtures.url('login.html'));
      expect(await third.extract(undefined, undefined, { selector: '#status' })).toEqual({ pageText: 'Signed in as Grace' });
      await third.close();

      const listed = await first.listSessions({ limit: 200 });
      // Through the API the project's sessions; in LOCAL each client's core has its own session only.
      const expected = mode === 'API' ? [first.sessionId, second.sessionId] : [first.sessionId];
      expect(listed.sessions.map((s) => s.sessionId)).toEqual(expect.arrayContaining(expected));
    } finally {
      await first.close();
      await second.close();
    }
  });
});
