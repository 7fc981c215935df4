// Browser provider: launch over a pipe with no DevTools port, the DevTools channels other clients
// attach through, Chromium switches, attach mode, and that ending a session leaves no Chromium behind.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineOf, isRunning, processTree } from '../src/browser/chromium/process-tree.js';
import { listeningPorts, startExternalChromium } from '../../../test/support/processes.js';
import { attachObserver, opContext, startFixtureServer, testManager, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
const manager = testManager();

beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await manager.shutdown();
  await fixtures.close();
});

describe('launched browser', () => {
  it('listens on no port: DevTools runs over a pipe only', async () => {
    const session = await manager.start('p1', { modelName: 'builtin/offline' });
    await session.navigate({ url: fixtures.url('/cross-iframe.html') }, opContext());
    const tree = processTree(session.browserPid!);
    expect(tree.flatMap(commandLineOf).filter((arg) => arg.startsWith('--remote-debugging-port'))).toEqual([]);
    expect(commandLineOf(session.browserPid!)).toContain('--remote-debugging-pipe');
    expect(tree.flatMap(listeningPorts)).toEqual([]);
    await manager.end('p1', session.id);
  });

  it('gives other clients DevTools channels whose first page is the session page', async () => {
    const session = await manager.start('p1', { modelName: 'builtin/offline' });
    await session.navigate({ url: fixtures.url('/forms.html') }, opContext());
    const observer = await attachObserver(session);
    try {
      const page = observer.contexts()[0]!.pages()[0]!;
      expect(page.url()).toBe(fixtures.url('/forms.html'));
      expect(await page.title()).toBe('Forms');
    } finally {
      await observer.close();
    }
    // Disconnecting the extra client leaves the session working.
    const result = await session.act({ input: { selector: '#go', method: 'click' } }, opContext());
    expect(result.success).toBe(true);
    await manager.end('p1', session.id);
  });

  it('keeps Playwright\'s feature switches when nothing is added', async () => {
    const session = await manager.start('p1', { modelName: 'builtin/offline' });
    const argv = commandLineOf(session.browserPid!);
    expect(argv.filter((arg) => arg.startsWith('--disable-features='))).toEqual([
      expect.stringContaining('PaintHolding'),
    ]);
    expect(argv.filter((arg) => arg.startsWith('--enable-features='))).toHaveLength(1);
    await manager.end('p1', session.id);
  });

  it('sends one merged --disable-features switch', async () => {
    const session = await manager.start('p1', {
      modelName: 'builtin/offline',
      browser: { type: 'local', launchOptions: { args: ['--disable-features=Translate', '--lang=en-GB'] } },
    });
    const argv = commandLineOf(session.browserPid!);
    const disable = argv.filter((arg) => arg.startsWith('--disable-features='));
    expect(disable).toHaveLength(1);
    expect(disable[0]!.split('=')[1]!.split(',')).toEqual(expect.arrayContaining(['PaintHolding', 'Translate']));
    expect(argv.filter((arg) => arg.startsWith('--enable-features='))).toHaveLength(1);
    expect(argv).toEqual(expect.arrayContaining(['--no-sandbox', '--disable-gpu', '--disable-quic', '--lang=en-GB']));
    await manager.end('p1', session.id);
  });

  // Full Chromium starts slower than the headless shell, much slower on a loaded 2-core machine: the
  // assertion is on its command line, so it gets the longest connect the launch options allow.
  it('switches off the WebUI omnibox renderers in full Chromium', { timeout: 150_000 }, async () => {
    const session = await manager.start('p1', {
      modelName: 'builtin/offline',
      browser: { type: 'local', launchOptions: { executablePath: '/usr/bin/chromium', headless: true, connectTimeoutMs: 120_000 } },
    });
    const disable = commandLineOf(session.browserPid!).filter((arg) => arg.startsWith('--disable-features='));
    expect(disable).toHaveLength(1);
    expect(disable[0]).toContain('WebUIOmniboxPopup,WebUIOmniboxAimPopup');
    await manager.end('p1', session.id);
  });

  it('leaves no Chromium process or temp profile after end', async () => {
    const session = await manager.start('p1', { modelName: 'builtin/offline' });
    await session.navigate({ url: fixtures.url('/cross-iframe.html') }, opContext());
    const tree = processTree(session.browserPid!);
    expect(tree.length).toBeGreaterThan(2);
    const profile = commandLineOf(session.browserPid!).find((arg) => arg.startsWith('--user-data-dir='))!.split('=')[1]!;
    await manager.end('p1', session.id);
    await expect.poll(() => tree.filter(isRunning), { timeout: 5_000 }).toEqual([]);
    // The end answers once the session is unreachable; the profile goes when the browser has closed.
    await expect.poll(() => existsSync(profile), { timeout: 5_000 }).toBe(false);
  });

  it('honours viewport and locale', async () => {
    const session = await manager.start('p1', {
      modelName: 'builtin/offline',
      browser: { type: 'local', launchOptions: { viewport: { width: 800, height: 600 }, locale: 'de-DE' } },
    });
    await session.navigate({ url: 'data:text/html,<p id=v></p><script>v.textContent=innerWidth+"x"+innerHeight+" "+navigator.language</script>' }, opContext());
    expect(await session.extract({}, opContext())).toEqual({ pageText: '800x600 de-DE' });
    await manager.end('p1', session.id);
  });
});

describe('attach mode', () => {
  it('drives an external browser and leaves it running at end', async () => {
    const external = await startExternalChromium();
    try {
      const session = await manager.start('p1', { modelName: 'builtin/offline', browser: { type: 'local', cdpUrl: external.cdpUrl } });
      expect(session.browserPid).toBeUndefined();
      await session.navigate({ url: fixtures.url('/shadow.html') }, opContext());
      const closed = await session.act(
        { input: { selector: '/html/body/closed-card[1]/#shadow-root/div[1]/button[1]', method: 'click' } },
        opContext(),
      );
      expect(closed).toMatchObject({ success: true });
      // Channels to an attached browser go to its own websocket.
      const observer = await attachObserver(session);
      expect(observer.contexts()[0]!.pages()[0]!.url()).toBe(fixtures.url('/shadow.html'));
      await observer.close();
      await manager.end('p1', session.id);
      expect(isRunning(external.pid)).toBe(true);
    } finally {
      await external.close();
    }
  });
});
