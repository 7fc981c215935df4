// The project's sessions list (its own only, with state and times, paged), and a session's cookies and
// storage state: a login saved from one session signs in another, at start or later.
import { describe, expect, it } from 'vitest';
import { driverFor } from '../support/drivers';
import { ALLOW_FIXTURES } from '../support/fixture-server';
import { expectError, expectOk, START_BODY, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract({ DECKHAND_API_KEYS: 'key-a:project-a,key-b:project-b', ...ALLOW_FIXTURES }, { 'x-bb-api-key': 'key-a' });

async function signIn(id: string, user: string): Promise<void> {
  expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('login.html') } }));
  expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#user', method: 'fill', arguments: [user], description: 'User' } } }));
  expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#sign-in', method: 'click', arguments: [], description: 'Sign in' } } }));
}

async function statusOn(id: string): Promise<string> {
  expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('login.html') } }));
  return pageText(ctx.api, id, '#status');
}

describe('sessions list', () => {
  it("lists the project's sessions newest first, with state and times, and never another project's", async () => {
    const first = await ctx.startSession();
    const second = await ctx.startSession();
    expectOk(await ctx.api.call('endSession', { id: first }));

    const reply = await ctx.api.call('listSessions', { query: {} });
    expectOk(reply);
    const listed = reply.body.data.sessions as Array<{ sessionId: string; state: string; createdAt: string; endedAt?: string }>;
    const mine = listed.filter((s) => s.sessionId === first || s.sessionId === second);
    expect(mine.map((s) => [s.sessionId, s.state])).toEqual([
      [second, 'ready'],
      [first, 'ended'],
    ]);
    expect(mine[1]!.endedAt! >= mine[1]!.createdAt).toBe(true);
    expect(mine[0]!.endedAt).toBeUndefined();

    const other = driverFor(ctx.server.url, { 'x-bb-api-key': 'key-b' });
    const theirs = await other.call('startSession', { body: START_BODY });
    expectOk(theirs);
    const seenByB = (await other.call('listSessions', { query: {} })).body.data.sessions.map((s: { sessionId: string }) => s.sessionId);
    expect(seenByB).toEqual([theirs.body.data.sessionId]);
    const seenByA = (await ctx.api.call('listSessions', { query: {} })).body.data.sessions.map((s: { sessionId: string }) => s.sessionId);
    expect(seenByA).not.toContain(theirs.body.data.sessionId);
    expectError(await other.call('getCookies', { id: second }), 404, 'session_not_found');
    expectOk(await other.call('endSession', { id: theirs.body.data.sessionId }));
    expectOk(await ctx.api.call('endSession', { id: second }));
  });

  it('pages with limit and nextCursor, each session once', async () => {
    const ids = [await ctx.startSession(), await ctx.startSession(), await ctx.startSession()];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const reply = await ctx.api.call('listSessions', { query: { limit: '2', ...(cursor && { cursor }) } });
      expectOk(reply);
      expect(reply.body.data.sessions.length).toBeLessThanOrEqual(2);
      seen.push(...reply.body.data.sessions.map((s: { sessionId: string }) => s.sessionId));
      cursor = reply.body.data.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expectError(await ctx.api.call('listSessions', { query: { cursor: 'not-a-cursor' } }), 400, 'validation_error');
    expectError(await ctx.api.call('listSessions', { query: { limit: '0' } }), 400, 'validation_error');
    for (const id of ids) expectOk(await ctx.api.call('endSession', { id }));
  });
});

describe('cookies and storage state', () => {
  it('carries a login from one session to another, by storageState at start and by POST', async () => {
    const source = await ctx.startSession();
    await signIn(source, 'Ada');
    expect(await pageText(ctx.api, source, '#status')).toContain('Signed in as Ada');

    const saved = await ctx.api.call('getStorageState', { id: source });
    expectOk(saved);
    const origin = new URL(ctx.fixtures.url('login.html')).origin;
    expect(saved.body.data.cookies).toContainEqual(expect.objectContaining({ name: 'login', value: 'Ada' }));
    expect(saved.body.data.origins).toContainEqual({ origin, localStorage: [{ name: 'profile', value: 'Ada' }] });

    const started = await ctx.startSession({ storageState: saved.body.data });
    expect(await statusOn(started)).toContain('Signed in as Ada');

    const later = await ctx.startSession();
    expect(await statusOn(later)).toContain('Signed out');
    expectOk(await ctx.api.call('setStorageState', { id: later, body: saved.body.data }));
    expect(await statusOn(later)).toContain('Signed in as Ada');

    for (const id of [source, started, later]) expectOk(await ctx.api.call('endSession', { id }));
  });

  it('reads, adds and clears cookies', async () => {
    const id = await ctx.startSession();
    const url = ctx.fixtures.url('login.html');
    const added = await ctx.api.call('setCookies', { id, body: { cookies: [{ name: 'theme', value: 'dark', url }] } });
    expectOk(added);
    expect(added.body.data.cookies).toEqual([expect.objectContaining({ name: 'theme', value: 'dark', domain: new URL(url).hostname, path: '/' })]);
    expect((await ctx.api.call('getCookies', { id })).body.data.cookies.map((c: { name: string }) => c.name)).toEqual(['theme']);

    const replaced = await ctx.api.call('setCookies', { id, body: { clear: true, cookies: [{ name: 'lang', value: 'en', url }] } });
    expect(replaced.body.data.cookies.map((c: { name: string }) => c.name)).toEqual(['lang']);
    expectOk(await ctx.api.call('setCookies', { id, body: { clear: true } }));
    expect((await ctx.api.call('getCookies', { id })).body.data.cookies).toEqual([]);

    // A cookie with neither url nor domain is the client's mistake, said as such.
    const bad = expectError(await ctx.api.call('setCookies', { id, body: { cookies: [{ name: 'x', value: 'y' }] } }), 400, 'validation_error');
    expect(bad.issues?.[0]?.path).toBe('body.cookies');
    expectOk(await ctx.api.call('endSession', { id }));
    expectError(await ctx.api.call('getCookies', { id }), 410, 'session_gone');
  });
});
