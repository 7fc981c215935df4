// Session lifecycle: project isolation, 404 vs 410, limits, idle expiry, crash isolation, the
// one-at-a-time queue and replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunning, processTree } from '../src/browser/chromium/process-tree.js';
import { DeckhandError } from '../src/errors.js';
import { opContext, startFixtureServer, testManager, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(() => fixtures.close());

function errorOf(fn: () => unknown): DeckhandError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DeckhandError) return error;
    throw error;
  }
  throw new Error('expected a DeckhandError');
}

describe('lookup', () => {
  const manager = testManager();
  afterAll(() => manager.shutdown());

  it('hides sessions of other projects and reports ended ones as gone', async () => {
    const session = await manager.start('alpha', { modelName: 'builtin/offline' });
    expect(manager.get('alpha', session.id)).toBe(session);
    expect(manager.whereIs('alpha', session.id)).toBe('live');
    expect(manager.whereIs('beta', session.id)).toBeUndefined();
    expect(manager.whereIs('alpha', 'no-such-id')).toBeUndefined();
    expect(errorOf(() => manager.get('beta', session.id))).toMatchObject({ code: 'session_not_found', status: 404 });
    expect(errorOf(() => manager.get('alpha', 'no-such-id'))).toMatchObject({ code: 'session_not_found' });
    await expect(manager.end('beta', session.id)).rejects.toMatchObject({ code: 'session_not_found' });

    await manager.end('alpha', session.id);
    expect(session.state).toBe('ended');
    expect(errorOf(() => manager.get('alpha', session.id))).toMatchObject({ code: 'session_gone', status: 410 });
    expect(manager.whereIs('alpha', session.id)).toBe('ended');
    expect(errorOf(() => manager.get('beta', session.id))).toMatchObject({ code: 'session_not_found' });
    expect(manager.whereIs('beta', session.id)).toBeUndefined();
    await expect(manager.end('alpha', session.id)).rejects.toMatchObject({ code: 'session_gone' });
    await expect(session.navigate({ url: fixtures.url('/forms.html') }, opContext())).rejects.toMatchObject({
      code: 'session_gone',
    });
  });

  it('keeps the model key off the enumerable session state', async () => {
    const session = await manager.start('alpha', { modelName: 'openai/gpt-4.1-mini' }, { modelApiKey: 'sk-secret-key' });
    expect(session.modelApiKey).toBe('sk-secret-key');
    expect(JSON.stringify(session)).not.toContain('sk-secret-key');
    expect(session.settings).toMatchObject({ modelName: 'openai/gpt-4.1-mini', verbose: 1, domSettleTimeoutMs: 10_000 });
    await manager.end('alpha', session.id);
  });
});

describe('limits', () => {
  it('refuses sessions beyond maxSessions', async () => {
    const manager = testManager({ maxSessions: 1 });
    const first = await manager.start('alpha', { modelName: 'builtin/offline' });
    await expect(manager.start('beta', { modelName: 'builtin/offline' })).rejects.toMatchObject({
      code: 'session_limit',
      status: 429,
    });
    await manager.end('alpha', first.id);
    const second = await manager.start('beta', { modelName: 'builtin/offline' });
    await manager.shutdown();
    expect(second.state).toBe('ended');
  });

  it('refuses a project its sessions past its own limit, with a retry hint, while other projects start', async () => {
    const manager = testManager({ maxSessions: 4 });
    const limit = { projectMaxSessions: 1 };
    const [first, other] = await Promise.all([manager.start('alpha', { modelName: 'builtin/offline' }, limit), manager.start('beta', { modelName: 'builtin/offline' }, limit)]);
    await expect(manager.start('alpha', { modelName: 'builtin/offline' }, limit)).rejects.toMatchObject({
      code: 'session_limit',
      status: 429,
      retryAfterSeconds: expect.any(Number),
    });
    await manager.end('alpha', first.id);
    await manager.start('alpha', { modelName: 'builtin/offline' }, limit);
    await manager.shutdown();
    expect(other.state).toBe('ended');
  });

  it('holds an ended session\'s place until its browser is closed: a start at the limit waits for that close, not a refusal', async () => {
    const manager = testManager({ maxSessions: 1 });
    const first = await manager.start('alpha', { modelName: 'builtin/offline' });
    const tree = processTree(first.browserPid!);
    await manager.end('alpha', first.id);
    expect(errorOf(() => manager.get('alpha', first.id))).toMatchObject({ code: 'session_gone' });
    await manager.start('alpha', { modelName: 'builtin/offline' });
    expect(tree.filter(isRunning)).toEqual([]);
    await manager.shutdown();
  });

  it('counts a project\'s sessions still starting against its limit', async () => {
    const manager = testManager({ maxSessions: 4 });
    const limit = { projectMaxSessions: 1 };
    const results = await Promise.allSettled([1, 2, 3].map(() => manager.start('alpha', { modelName: 'builtin/offline' }, limit)));
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected', 'rejected']);
    await manager.shutdown();
  });

  it('expires an idle session and kills its browser', async () => {
    const manager = testManager({ idleTimeoutMs: 400 });
    const session = await manager.start('alpha', { modelName: 'builtin/offline' });
    const tree = processTree(session.browserPid!);
    await session.navigate({ url: fixtures.url('/forms.html') }, opContext());
    await expect.poll(() => session.state, { timeout: 5_000 }).toBe('expired');
    expect(errorOf(() => manager.get('alpha', session.id))).toMatchObject({ code: 'session_gone' });
    expect(errorOf(() => manager.get('alpha', session.id)).message).toMatch(/expired/);
    await expect.poll(() => tree.filter(isRunning), { timeout: 5_000 }).toEqual([]);
  });

  it('expires a session at its maximum age even while in use', async () => {
    const manager = testManager({ maxSessionMs: 500 });
    const session = await manager.start('alpha', { modelName: 'builtin/offline' });
    // On a loaded machine the lifetime may run out during the navigate itself: that is "in use" too.
    await session.navigate({ url: fixtures.url('/forms.html') }, opContext()).catch((error) => expect(error).toMatchObject({ code: 'session_gone' }));
    await expect.poll(() => session.state, { timeout: 5_000 }).toBe('expired');
    await manager.shutdown();
  });
});

describe('crash', () => {
  it('turns a killed browser into session_gone without touching other sessions', async () => {
    const manager = testManager();
    const victim = await manager.start('alpha', { modelName: 'builtin/offline' });
    // Another project's: a project's sessions share a browser, and a crash of it ends them all.
    const survivor = await manager.start('beta', { modelName: 'builtin/offline' });
    await victim.navigate({ url: fixtures.url('/forms.html') }, opContext());
    process.kill(victim.browserPid!, 'SIGKILL');
    await expect.poll(() => victim.state, { timeout: 5_000 }).toBe('crashed');
    const gone = errorOf(() => manager.get('alpha', victim.id));
    expect(gone).toMatchObject({ code: 'session_gone' });
    expect(gone.message).toMatch(/crashed/);
    await expect(victim.act({ input: { selector: '#go' } }, opContext())).rejects.toMatchObject({ code: 'session_gone' });
    const result = await survivor.navigate({ url: fixtures.url('/forms.html') }, opContext());
    expect(result?.response.status).toBe(200);
    await manager.shutdown();
  });

  it('fails an operation in flight when the browser dies under it', async () => {
    const manager = testManager();
    const session = await manager.start('alpha', { modelName: 'builtin/offline' });
    await session.navigate({ url: fixtures.url('/slow.html') }, opContext());
    const pending = session.act({ input: { selector: '#ticker' } }, opContext());
    setTimeout(() => process.kill(session.browserPid!, 'SIGKILL'), 150);
    await expect(pending).rejects.toMatchObject({ code: 'session_gone' });
    await manager.shutdown();
  });
});

describe('queue and history', () => {
  const manager = testManager();
  afterAll(() => manager.shutdown());

  it('runs concurrent operations one after the other', async () => {
    const session = await manager.start('alpha', { modelName: 'builtin/offline' });
    await session.navigate({ url: fixtures.url('/slow.html') }, opContext());
    const [first, second] = await Promise.all([
      session.act({ input: { selector: '#fetch' } }, opContext()),
      session.extract({ options: { selector: '#log' } }, opContext()),
    ]);
    expect(first.success).toBe(true);
    // The extract waited for the act, which waited for the fetch to land.
    expect(second).toEqual({ pageText: 'loaded: 800' });
    const actions = session.replay().pages.flatMap((page) => page.actions);
    const [act, extract] = actions.slice(-2);
    expect(act!.method).toBe('act');
    expect(extract!.method).toBe('extract');
    expect(extract!.timestamp).toBeGreaterThanOrEqual(act!.endTime!);
  });

  it('drops a queued operation whose caller gave up before its turn', async () => {
    const session = await manager.start('alpha', { modelName: 'builtin/offline' });
    await session.navigate({ url: fixtures.url('/slow.html') }, opContext());
    const running = session.act({ input: { selector: '#fetch' } }, opContext());
    const controller = new AbortController();
    const queued = session.navigate({ url: fixtures.url('/forms.html') }, opContext(controller.signal));
    controller.abort();
    await expect(queued).rejects.toMatchObject({ code: 'timeout' });
    await running;
    const methods = session.replay().pages.flatMap((page) => page.actions.map((action) => action.method));
    expect(methods).toEqual(['navigate', 'act']);
  });

  it('records pages and operations for replay, variables by name only', async () => {
    const session = await manager.start('alpha', { modelName: 'builtin/offline' });
    await session.navigate({ url: fixtures.url('/forms.html') }, opContext());
    await session.act(
      {
        input: { selector: '#password', method: 'fill', arguments: ['%pw%'] },
        options: { variables: { pw: { value: 'hunter2-secret', description: 'the password' } }, model: { modelName: 'openai/x', apiKey: 'sk-model' } },
      },
      opContext(),
    );
    await session.act({ input: { selector: '#to-select', method: 'click' } }, opContext());
    const replay = session.replay();
    expect(replay.pages.map((page) => page.url)).toEqual([
      'about:blank',
      fixtures.url('/forms.html'),
      fixtures.url('/select.html'),
    ]);
    const forms = replay.pages[1]!;
    // The forms page lasted from the navigation's end until the click that left it; the fill in
    // between waited settleQuietMs for the DOM to stay quiet, so that is never 0 ms.
    expect(forms.duration).toBe(replay.pages[2]!.timestamp - forms.timestamp);
    expect(forms.duration).toBeGreaterThan(0);
    expect(forms.actions.map((action) => action.method)).toEqual(['act', 'act']);
    expect(forms.actions[0]).toMatchObject({
      parameters: {
        input: { selector: '#password', method: 'fill', arguments: ['%pw%'] },
        options: { variables: ['pw'], model: 'openai/x' },
      },
      result: { success: true },
    });
    expect(typeof forms.actions[0]!.endTime).toBe('number');
    const text = JSON.stringify(replay);
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain('sk-model');
  });
});
