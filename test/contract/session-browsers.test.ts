// Which browser a session runs in, read from the process tree: a project's default-launch sessions share
// one Chromium, projects never share, custom launch options get a browser of their own; a warm pool
// hands out a launched browser that never held a page, refills, and never hands one out again; no
// browser outlives its sessions or the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverFor, type Driver } from '../support/drivers';
import { expectOk, START_BODY } from '../support/contract';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { browserPidOf, isRunning, launchedBrowsers } from '../support/processes';
import { processTree } from '../../packages/core/src/browser/chromium/process-tree';
import { startTestServer, type TestServer } from '../support/test-server';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(() => fixtures.close());

interface Running {
  server: TestServer;
  a: Driver;
  b: Driver;
}

async function serve(env: Record<string, string>): Promise<Running> {
  const server = await startTestServer({ DECKHAND_API_KEYS: 'key-a:project-a,key-b:project-b', DECKHAND_PROJECT_MAX_SESSIONS: '0', ...ALLOW_FIXTURES, ...env });
  return { server, a: driverFor(server.url, { 'x-bb-api-key': 'key-a' }), b: driverFor(server.url, { 'x-bb-api-key': 'key-b' }) };
}

async function start(api: Driver, extra: Record<string, unknown> = {}): Promise<{ id: string; cdpUrl: string; pid: number }> {
  const reply = await api.call('startSession', { body: { ...START_BODY, ...extra } });
  expectOk(reply);
  const { sessionId: id, cdpUrl } = reply.body.data;
  expectOk(await api.call('navigate', { id, body: { url: fixtures.url('forms.html') } }));
  return { id, cdpUrl, pid: await browserPidOf(cdpUrl) };
}

const end = async (api: Driver, id: string) => expectOk(await api.call('endSession', { id }));

describe('browsers of sessions', () => {
  it('shares one browser within a project, never across projects, and not with custom launch options; ending closes them', async () => {
    const { server, a, b } = await serve({ DECKHAND_POOL_SIZE: '0' });
    try {
      expect(launchedBrowsers()).toEqual([]);
      const a1 = await start(a);
      const a2 = await start(a);
      const b1 = await start(b);
      const own = await start(a, { browser: { type: 'local', launchOptions: { headless: true, args: ['--lang=fr'] } } });
      expect(a2.pid).toBe(a1.pid);
      expect(b1.pid).not.toBe(a1.pid);
      expect(own.pid).not.toBe(a1.pid);
      expect(launchedBrowsers().sort()).toEqual([a1.pid, b1.pid, own.pid].sort());
      const shared = processTree(a1.pid);
      await end(a, a1.id);
      // The browser stays for the session still in it...
      expect(isRunning(a1.pid)).toBe(true);
      expectOk(await a.call('act', { id: a2.id, body: { input: { selector: '#go', method: 'click' } } }));
      // ...and goes, with every process of its tree, with the last one.
      await end(a, a2.id);
      await expect.poll(() => shared.filter(isRunning), { timeout: 10_000 }).toEqual([]);
      await end(b, b1.id);
      await end(a, own.id);
      await expect.poll(() => launchedBrowsers(), { timeout: 10_000 }).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('starts a session in a pooled browser, refills the pool, and never hands a used browser out again', async () => {
    const { server, a, b } = await serve({ DECKHAND_POOL_SIZE: '1' });
    try {
      await expect.poll(() => launchedBrowsers().length, { timeout: 20_000 }).toBe(1);
      const [pooled] = launchedBrowsers();
      const first = await start(a);
      expect(first.pid).toBe(pooled);
      // The pool launches a replacement in the background.
      await expect.poll(() => launchedBrowsers().length, { timeout: 20_000 }).toBe(2);
      const [refill] = launchedBrowsers().filter((pid) => pid !== pooled);
      // The project's browser is reused for its next session (warm too); another project takes the pooled one.
      const second = await start(a);
      expect(second.pid).toBe(pooled);
      const other = await start(b);
      expect(other.pid).toBe(refill);
      await expect.poll(() => launchedBrowsers().length, { timeout: 20_000 }).toBe(3);
      // A used browser closes with its last session: it never goes back to the pool.
      await end(a, first.id);
      await end(a, second.id);
      await expect.poll(() => isRunning(pooled!), { timeout: 10_000 }).toBe(false);
      await end(b, other.id);
      await expect.poll(() => isRunning(refill!), { timeout: 10_000 }).toBe(false);
      const again = await start(a);
      expect([pooled, refill]).not.toContain(again.pid);
      await end(a, again.id);
    } finally {
      await server.close();
    }
    // Nothing outlives the server: not its pooled browser either.
    await expect.poll(() => launchedBrowsers(), { timeout: 10_000 }).toEqual([]);
  });

  it('replaces a pooled browser past its maximum age, and launches none with the pool off', async () => {
    const aged = await serve({ DECKHAND_POOL_SIZE: '1', DECKHAND_POOL_MAX_AGE_MS: '1000' });
    try {
      await expect.poll(() => launchedBrowsers().length, { timeout: 20_000 }).toBe(1);
      const [first] = launchedBrowsers();
      await expect.poll(() => isRunning(first!), { timeout: 20_000 }).toBe(false);
      await expect.poll(() => launchedBrowsers().filter((pid) => pid !== first).length, { timeout: 20_000 }).toBe(1);
    } finally {
      await aged.server.close();
    }
    await expect.poll(() => launchedBrowsers(), { timeout: 10_000 }).toEqual([]);
    const off = await serve({ DECKHAND_POOL_SIZE: '0' });
    try {
      const session = await start(off.a);
      expect(launchedBrowsers()).toEqual([session.pid]);
      await end(off.a, session.id);
      await expect.poll(() => launchedBrowsers(), { timeout: 10_000 }).toEqual([]);
    } finally {
      await off.server.close();
    }
  });
});
