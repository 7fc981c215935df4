// Attack (issue 17, items 1-4 and the relay's minor ones): a client with an ordinary key drives its
// session's DevTools connections (the cdpUrl of a session in the project's shared browser, the cdpUrl of a
// session with a browser of its own, and the debugUrl's page socket) to write downloads into any host
// directory, load file: URLs (a host secret, the server's API key file) and read them back, make a
// context with its own proxy that skips the navigation policy to reach the server's own API, hand the
// page host files to upload, trace the browser or read its processes. The relay forwards an allowlist:
// none of it gets through, and each refusal is a CDP error naming the method.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESS_OWNER } from '../../packages/core/src/host/process-owner';
import { expectOk, START_BODY, useContract } from '../support/contract';
import { rawCdp, type CdpReply } from '../support/raw-cdp';

// Chromium runs as an unprivileged user: it may pass through the canary directory (so the data
// directory inside is reachable), and the drop directory is open to it, so only the relay keeps files out.
const canary = mkdtempSync(join(tmpdir(), 'deckhand-canary-'));
chmodSync(canary, 0o711);
const drop = join(canary, 'drop');
mkdirSync(drop);
chmodSync(drop, 0o777);
const SECRET = `host-secret-${Math.random().toString(36).slice(2)}`;
const secretFile = join(canary, 'secret.txt');
writeFileSync(secretFile, SECRET);
const KEY_B = `key-b-${Math.random().toString(36).slice(2)}`;
const keysFile = join(canary, 'keys.txt');
writeFileSync(keysFile, `key-a:project-a\n${KEY_B}:project-b\n`);
const dataDir = join(canary, 'data');
afterAll(() => rmSync(canary, { recursive: true, force: true }));

// No navigation allowances: loopback (the server itself) is out of bounds, as on any shared server.
const ctx = useContract({ DECKHAND_API_KEYS_FILE: keysFile, DECKHAND_PROJECT_MAX_SESSIONS: '0', DECKHAND_DATA_DIR: dataDir }, { 'x-bb-api-key': 'key-a' });

/** One way into a session's browser: commands at browser level and on the session's page. */
interface Way {
  sessionId: string;
  browser(method: string, params?: Record<string, unknown>): Promise<CdpReply>;
  page(method: string, params?: Record<string, unknown>): Promise<CdpReply>;
  close(): Promise<void>;
}

const OWN_BROWSER = { browser: { type: 'local', launchOptions: { headless: true, locale: 'de-DE' } } };

async function start(extra: Record<string, unknown>) {
  const reply = await ctx.api.call('startSession', { body: { ...START_BODY, ...extra } });
  expectOk(reply);
  return reply.body.data as { sessionId: string; cdpUrl: string; debugUrl: string };
}

async function overCdpUrl(extra: Record<string, unknown>): Promise<Way> {
  const { sessionId, cdpUrl } = await start(extra);
  const cdp = await rawCdp(cdpUrl);
  const page = (await cdp.send('Target.getTargets')).result!.targetInfos!.find((t) => t.type === 'page')!;
  const pageSession = (await cdp.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })).result!.sessionId as string;
  return {
    sessionId,
    browser: (method, params) => cdp.send(method, params),
    page: (method, params) => cdp.send(method, params, pageSession),
    close: () => end(sessionId, cdp.close),
  };
}

/** The debugUrl's page socket, where the front end would connect: everything it sends goes to the page. */
async function overDebugUrl(): Promise<Way> {
  const { sessionId, debugUrl } = await start({});
  const location = new URL((await fetch(debugUrl, { redirect: 'manual' })).headers.get('location')!);
  const cdp = await rawCdp(`ws://${location.searchParams.get('ws')}`);
  return {
    sessionId,
    browser: (method, params) => cdp.send(method, params),
    page: (method, params) => cdp.send(method, params),
    close: () => end(sessionId, cdp.close),
  };
}

async function end(sessionId: string, close: () => void): Promise<void> {
  close();
  expectOk(await ctx.api.call('endSession', { id: sessionId }));
}

const WAYS: Array<[string, () => Promise<Way>]> = [
  ['the cdpUrl of a session in the shared browser', () => overCdpUrl({})],
  ['the cdpUrl of a session with a browser of its own', () => overCdpUrl(OWN_BROWSER)],
  ["the debugUrl's page socket", overDebugUrl],
];

const refused = (method: string) => new RegExp(`^${method.replace('.', '\\.')} is not available through the relay: `);

async function pageText(way: Way): Promise<string> {
  const reply = await way.page('Runtime.evaluate', { expression: 'document.documentElement ? document.documentElement.innerText : ""', returnByValue: true });
  return String(reply.result?.result && (reply.result.result as { value?: unknown }).value);
}

/** Files (not partial downloads) in a directory, or none when it does not exist. */
function finishedFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !name.endsWith('.crdownload'));
  } catch {
    return [];
  }
}

describe.each(WAYS)('through %s', (_name, open) => {
  it("writes a download only into the session's own downloads directory, whatever downloadPath says (item 1)", async () => {
    const way = await open();
    try {
      const browserLevel = await way.browser('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: drop, eventsEnabled: true });
      expect(browserLevel.error).toBeUndefined();
      expect((await way.page('Page.setDownloadBehavior', { behavior: 'allow', downloadPath: drop })).error).toBeUndefined();
      const html = '<a href="data:text/plain,downloaded-content" download="note.txt">download</a>';
      expect((await way.page('Page.navigate', { url: `data:text/html,${encodeURIComponent(html)}` })).error).toBeUndefined();
      await expect.poll(async () => (await pageText(way)).includes('download'), { timeout: 10_000 }).toBe(true);
      await way.page('Runtime.evaluate', { expression: 'document.querySelector("a").click()', userGesture: true });
      const mine = join(dataDir, 'project-a', 'downloads', PROCESS_OWNER, way.sessionId);
      await expect.poll(() => finishedFiles(drop).length + finishedFiles(mine).length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(readdirSync(drop)).toEqual([]);
      const [file] = finishedFiles(mine);
      expect(readFileSync(join(mine, file!), 'utf8')).toBe('downloaded-content');
    } finally {
      await way.close();
    }
  });

  it("loads no file: or browser-internal URL, so neither a host file nor the server's key file can be read (items 2, 3)", async () => {
    const way = await open();
    try {
      for (const target of [secretFile, keysFile]) {
        const url = pathToFileURL(target).href;
        for (const attempt of [url, `view-source:${url}`, `filesystem:${url}`]) {
          expect((await way.page('Page.navigate', { url: attempt })).error?.message).toMatch(refused('Page.navigate'));
        }
        expect((await way.browser('Target.createTarget', { url })).error?.message).toMatch(refused('Target.createTarget'));
      }
      for (const url of ['chrome://version', 'devtools://devtools/bundled/inspector.html', 'chrome-extension://abc/x.html', 'javascript:1']) {
        expect((await way.page('Page.navigate', { url })).error?.message).toMatch(refused('Page.navigate'));
      }
      // Whatever the page is now, it holds neither file: a read of the key file would hand over project B.
      const text = await pageText(way);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(KEY_B);
    } finally {
      await way.close();
    }
  });

  it("hands the page no host file: chosen and dragged files come only from the project's directory", async () => {
    const way = await open();
    const project = join(dataDir, 'project-a');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'upload.txt'), 'project-file');
    symlinkSync(secretFile, join(project, `leak-${way.sessionId}.txt`));
    try {
      expect((await way.page('Page.navigate', { url: 'data:text/html,<input type=file multiple>' })).error).toBeUndefined();
      await expect.poll(async () => (await way.page('Runtime.evaluate', { expression: '!!document.querySelector("input")', returnByValue: true })).result?.result, { timeout: 10_000 }).toMatchObject({ value: true });
      const root = (await way.page('DOM.getDocument', {})).result!.root as { nodeId: number };
      const { nodeId } = (await way.page('DOM.querySelector', { nodeId: root.nodeId, selector: 'input' })).result as { nodeId: number };
      for (const files of [[secretFile], ['/etc/passwd'], [`../../../../../..${secretFile}`], [`leak-${way.sessionId}.txt`], ['upload.txt', secretFile]]) {
        expect((await way.page('DOM.setFileInputFiles', { nodeId, files })).error?.message).toMatch(refused('DOM.setFileInputFiles'));
      }
      const drag = { type: 'dragEnter', x: 5, y: 5, data: { items: [], files: [secretFile], dragOperationsMask: 1 } };
      expect((await way.page('Input.dispatchDragEvent', drag)).error?.message).toMatch(refused('Input.dispatchDragEvent'));
      // A file of the project's own, by a path relative to its directory or absolute, is fine.
      expect((await way.page('DOM.setFileInputFiles', { nodeId, files: ['upload.txt', join(project, 'upload.txt')] })).error).toBeUndefined();
      const read = await way.page('Runtime.evaluate', { expression: 'Promise.all([...document.querySelector("input").files].map((f) => f.text()))', awaitPromise: true, returnByValue: true });
      expect((read.result?.result as { value?: unknown }).value).toEqual(['project-file', 'project-file']);
    } finally {
      await way.close();
    }
  });

  it('neither traces the browser nor describes its processes (minor items)', async () => {
    const way = await open();
    try {
      expect((await way.page('Tracing.start', {})).error?.message).toMatch(refused('Tracing.start'));
      expect((await way.browser('Tracing.start', {})).error?.message).toMatch(refused('Tracing.start'));
      expect((await way.browser('SystemInfo.getProcessInfo')).error?.message).toMatch(refused('SystemInfo.getProcessInfo'));
      expect((await way.browser('SystemInfo.getInfo')).error?.message).toMatch(refused('SystemInfo.getInfo'));
    } finally {
      await way.close();
    }
  });
});

describe('through the cdpUrl of a session with a browser of its own (item 4)', () => {
  it("makes no context with its own proxy, and reaches the server's own API by no address", async () => {
    const way = await overCdpUrl(OWN_BROWSER);
    try {
      const health = `${ctx.server.url}/healthz`;
      const direct = await way.browser('Target.createBrowserContext', { proxyServer: 'direct://' });
      expect(direct.error?.message).toMatch(/^Target\.createBrowserContext is not available through the relay: proxyServer is not allowed/);
      // Had it been made, a page in it would load the server's API with no proxy in between.
      const contextId = direct.result?.browserContextId;
      const created = await way.browser('Target.createTarget', { url: health, ...(contextId ? { browserContextId: contextId } : {}) });
      expect(created.error?.message).toMatch(/^Target\.createTarget is not available through the relay: url Navigation to .* is blocked by the navigation policy/);
      expect((await way.page('Page.navigate', { url: health })).error?.message).toMatch(refused('Page.navigate'));
      expect((await way.browser('Target.createBrowserContext', { proxyBypassList: '<-loopback>' })).error?.message).toMatch(refused('Target.createBrowserContext'));
      // A context without a proxy of its own is an ordinary one: its connections go through the policy.
      const plain = await way.browser('Target.createBrowserContext', {});
      expect(plain.error).toBeUndefined();
      expect((await way.browser('Target.disposeBrowserContext', { browserContextId: plain.result!.browserContextId })).error).toBeUndefined();
    } finally {
      await way.close();
    }
  });
});
