// A launched browser sits behind its policy proxy: the switches that put it there cannot be taken away
// by launch options, loopback and link-local go through the proxy too, the session's own proxy sits
// behind ours with its credentials kept off the command line, and the proxy ends with the session.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChromiumArgs } from '../src/browser/chromium/chromium-args.js';
import { parsePolicyRules } from '../src/network/network-policy.js';
import type { Session } from '../src/session/session.js';
import { commandLineOf } from '../src/browser/chromium/process-tree.js';
import { startHitRecorder, type HitRecorder } from '../../../test/support/hit-recorder.js';
import { startRecordingProxy, type RecordingProxy } from '../../../test/support/recording-proxy.js';
import { opContext, startFixtureServer, testManager, textOf, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
let recorder: HitRecorder;
let upstream: RecordingProxy;
// A shared server's policy that allows the fixture server (127.0.0.1 and localhost) only.
const manager = testManager({
  navigationPolicy: { localNetworks: 'deny', allow: parsePolicyRules('127.0.0.1,localhost', 'DECKHAND_NAV_ALLOW'), deny: [] },
});

beforeAll(async () => {
  fixtures = await startFixtureServer();
  recorder = await startHitRecorder();
  upstream = await startRecordingProxy();
});
afterAll(async () => {
  await manager.shutdown();
  await Promise.all([fixtures.close(), recorder.close(), upstream.close()]);
});

const OURS = [/^--proxy-server=http:\/\/127\.0\.0\.1:\d+$/, /^--proxy-bypass-list=<-loopback>$/, /^--force-webrtc-ip-handling-policy=disable_non_proxied_udp$/];

describe('the launched command line', () => {
  const HOSTILE = ['--no-proxy-server', '--proxy-server=direct://', '--proxy-bypass-list=*', '--proxy-pac-url=data:,', '--force-webrtc-ip-handling-policy=default'];

  it('refuses proxying switches in launch options, and holds our three switches', async () => {
    for (const arg of HOSTILE) {
      await expect(manager.start('p1', { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { args: [arg] } } })).rejects.toThrow(/browser.launchOptions.args.0/);
    }
    await expect(
      manager.start('p1', { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { ignoreDefaultArgs: ['--proxy-bypass-list=<-loopback>'] } } }),
    ).rejects.toThrow(/may not be dropped/);
    const session = await manager.start('p1', { modelName: 'builtin/offline' });
    const argv = commandLineOf(session.browserPid!);
    const proxying = argv.filter((arg) => /^--(no-proxy|proxy-|force-webrtc)/.test(arg));
    expect(proxying).toHaveLength(3);
    OURS.forEach((pattern, i) => expect(proxying[i]).toMatch(pattern));
    // The policy holds: loopback beyond the allowed fixture server is refused in the page.
    await session.navigate({ url: `${fixtures.url('/reach-out.html')}?to=${encodeURIComponent(`http://127.0.0.2:${recorder.port}`)}` }, opContext());
    await expect.poll(() => allOver(session)).toBe(true);
    expect(recorder.connections).toBe(0);
    await manager.end('p1', session.id);
  });

  it('drops proxying switches from the command line even if they got past the launch policy', () => {
    const argv = buildChromiumArgs(
      { args: HOSTILE, ignoreDefaultArgs: ['--proxy-bypass-list=<-loopback>'] },
      { headless: true, fullChromium: false, userDataDir: '/tmp/x', viewport: { width: 800, height: 600 }, proxyServer: 'http://127.0.0.1:1', sandbox: false, pageHeapMb: 0 },
    );
    expect(argv.filter((arg) => /^--(no-proxy|proxy-|force-webrtc)/.test(arg))).toEqual([
      '--proxy-server=http://127.0.0.1:1',
      '--proxy-bypass-list=<-loopback>',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    ]);
  });
});

describe('through the proxy', () => {
  it('sends link-local destinations through the proxy, which refuses them', async () => {
    const session = await manager.start('p1', { modelName: 'builtin/offline' });
    await session.navigate({ url: `${fixtures.url('/reach-out.html')}?to=${encodeURIComponent('http://169.254.169.254')}` }, opContext());
    // The frame shows the proxy's refusal: Chromium asked the proxy instead of connecting itself.
    await expect.poll(() => textOf(session)).toContain(
      "Blocked by Deckhand's navigation policy: 169.254.169.254 is a link-local or cloud metadata address",
    );
    await manager.end('p1', session.id);
  });

  it("puts the session's own proxy behind ours, with its credentials off the command line", async () => {
    const session = await manager.start('p1', {
      modelName: 'builtin/offline',
      browser: { type: 'local', launchOptions: { proxy: { server: upstream.url, username: 'agent', password: 'hunter2-secret' } } },
    });
    const argv = commandLineOf(session.browserPid!).join(' ');
    expect(argv).not.toContain('hunter2-secret');
    expect(argv).not.toContain(upstream.url);
    const result = await session.navigate({ url: fixtures.url('/forms.html') }, opContext());
    expect(result?.response.status).toBe(200);
    expect(upstream.seen()).toContain(`GET ${fixtures.url('/forms.html')} HTTP/1.1`);
    expect(upstream.seen()).toContain(`Basic ${Buffer.from('agent:hunter2-secret').toString('base64')}`);
    await manager.end('p1', session.id);
  });

  it('reports the remote address the proxy connected to, and closes the proxy with the session', async () => {
    const session = await manager.start('p1', { modelName: 'builtin/offline' });
    const result = await session.navigate({ url: fixtures.url('/forms.html') }, opContext());
    expect(result?.response).toMatchObject({ remoteIPAddress: '127.0.0.1', remotePort: Number(new URL(fixtures.origin).port) });
    const proxyPort = Number(/^--proxy-server=http:\/\/127\.0\.0\.1:(\d+)$/.exec(commandLineOf(session.browserPid!).find((arg) => arg.startsWith('--proxy-server='))!)![1]);
    expect(await accepts(proxyPort)).toBe(true);
    await manager.end('p1', session.id);
    // The end answers first; the browser, and its proxy with it, close in the background.
    await expect.poll(() => accepts(proxyPort), { timeout: 10_000 }).toBe(false);
  });
});

/** Whether every request of reach-out.html has finished (loaded or failed). */
async function allOver(session: Session): Promise<boolean> {
  const log = await textOf(session, '#log');
  return ['iframe', 'redirect', 'img', 'fetch', 'ws'].every((label) => log.includes(`${label}: over`));
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
