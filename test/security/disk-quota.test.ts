// Downloads cannot fill the disk: a project's downloads and browser profiles are held to
// DECKHAND_PROJECT_DISK_MB. A download that would go past it is cancelled and nothing of it stays; a start
// or an operation while the quota is full is a 429 disk_quota; a session's downloads are gone when it ends.
// One that completes past the quota is dropped, whether the session saved it or a client driving the browser
// over the session's cdpUrl did.
// Under concurrency the quota holds: uploads and downloads in flight are reserved against it, and an upload
// refused stores none of its files.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_OWNER } from '../../packages/core/src/host/process-owner';
import { expectError, expectOk, START_BODY } from '../support/contract';
import { driverFor, type Driver } from '../support/drivers';
import { rawCdp } from '../support/raw-cdp';
import { startTestServer, type TestServer } from '../support/test-server';

const MIB = 1024 * 1024;
const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-quota-test-'));

/** A page with a download link, and the download: `mb` MiB, 1 MiB every 10 ms (or all at once: `burst=1`), without a length (or with it: `sized=1`). */
interface Downloads {
  url: string;
  /** Resolves per download with the bytes sent and whether the browser hung up before the end. */
  next(): Promise<{ sent: number; aborted: boolean }>;
  close(): Promise<void>;
}

async function startDownloads(): Promise<Downloads> {
  const waiting: Array<(result: { sent: number; aborted: boolean }) => void> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    if (url.pathname === '/page') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<a id="dl" href="/file?${url.searchParams}" download="data.bin">Download</a>`);
      return;
    }
    const total = Number(url.searchParams.get('mb')) * MIB;
    res.writeHead(200, { 'content-type': 'application/octet-stream', ...(url.searchParams.has('sized') && { 'content-length': String(total) }) });
    let sent = 0;
    const chunk = Buffer.alloc(MIB, 7);
    const done = (aborted: boolean) => waiting.shift()?.({ sent, aborted });
    res.on('close', () => {
      if (!res.writableFinished) done(true);
    });
    if (url.searchParams.has('burst')) {
      sent = total;
      res.end(Buffer.alloc(total, 7), () => done(false));
      return;
    }
    const pump = () => {
      if (res.destroyed) return;
      if (sent >= total) return res.end(() => done(false));
      sent += chunk.length;
      res.write(chunk);
      setTimeout(pump, 10);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Files under the downloads folders of this process's browsers. */
/** Files in the browsers' own download folders and in the sessions' (`<dataDir>/<project>/downloads/<owner>/<session>/`, where a finished download is moved). */
function downloadedFiles(): Array<{ path: string; size: number }> {
  const prefix = `deckhand-profile-${process.pid}.`;
  const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).map((file) => join(dir, file)) : []);
  const browsers = readdirSync(tmpdir())
    .filter((name) => name.startsWith(prefix))
    .map((name) => join(tmpdir(), name, 'downloads'));
  const sessions = readdirSync(dataDir).flatMap((project) => filesIn(join(dataDir, project, 'downloads', PROCESS_OWNER)));
  return [...browsers, ...sessions]
    .flatMap(filesIn)
    .map((path) => ({ path, size: existsSync(path) ? statSync(path).size : 0 }));
}

let server: TestServer;
let downloads: Downloads;
let api: Driver;

beforeAll(async () => {
  downloads = await startDownloads();
  server = await startTestServer({ DECKHAND_PROJECT_DISK_MB: '20', DECKHAND_DATA_DIR: dataDir, DECKHAND_POOL_SIZE: '0' });
  api = driverFor(server.url);
});
afterAll(async () => {
  await server?.close();
  await downloads?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Bytes under a directory, every file counted (what the server's measure counts). */
function bytesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sum + bytesUnder(path);
    return sum + (entry.isFile() ? (statSync(path, { throwIfNoEntry: false })?.size ?? 0) : 0);
  }, 0);
}

/** What the project holds: its data directory and the directories of this process's browsers. */
function projectBytes(): number {
  const browsers = readdirSync(tmpdir()).filter((name) => name.startsWith(`deckhand-profile-${process.pid}.`));
  return bytesUnder(dataDir) + browsers.reduce((sum, name) => sum + bytesUnder(join(tmpdir(), name)), 0);
}

async function sessionOnDownloadPage(mb: number, sized = false, burst = false): Promise<string> {
  const start = await api.call('startSession', { body: START_BODY });
  expectOk(start);
  const id = start.body.data.sessionId as string;
  expectOk(await api.call('navigate', { id, body: { url: `${downloads.url}/page?mb=${mb}${sized ? '&sized=1' : ''}${burst ? '&burst=1' : ''}` } }));
  return id;
}

const CLICK = { input: { selector: '#dl', method: 'click', arguments: [], description: 'the Download link' } };

/**
 * `count` sessions each click a download of `mb` MiB of unknown size, arriving whole, all at once; once every
 * download has finished, the sizes the sessions list as kept.
 */
async function downloadAllAtOnce(count: number, mb: number): Promise<{ ids: string[]; kept: number[] }> {
  const ids = await Promise.all(Array.from({ length: count }, () => sessionOnDownloadPage(mb, false, true)));
  const finished = ids.map(() => downloads.next());
  for (const answer of await Promise.all(ids.map((id) => api.call('act', { id, body: CLICK })))) expectOk(answer);
  await Promise.all(finished);
  const kept: number[] = [];
  for (const id of ids) {
    const listed = await api.call('listDownloads', { id });
    expectOk(listed);
    for (const file of listed.body.data.files as Array<{ size: number }>) kept.push(file.size);
  }
  return { ids, kept };
}

describe('per-project disk quota', () => {
  it('cancels a download that would go past the quota, and nothing of it stays', async () => {
    const id = await sessionOnDownloadPage(60);
    const finished = downloads.next();
    expectOk(await api.call('act', { id, body: CLICK }));
    const { sent, aborted } = await finished;
    expect(aborted).toBe(true);
    expect(sent).toBeLessThan(60 * MIB);
    await expect.poll(() => downloadedFiles().reduce((sum, file) => sum + file.size, 0), { timeout: 10_000 }).toBeLessThanOrEqual(20 * MIB);
    expectOk(await api.call('endSession', { id }));
  });

  it('answers 429 disk_quota to a start and to an operation while the quota is full, and recovers', async () => {
    const id = await sessionOnDownloadPage(1);
    const filler = join(dataDir, 'local', 'filler.bin');
    mkdirSync(join(dataDir, 'local'), { recursive: true });
    writeFileSync(filler, Buffer.alloc(21 * MIB));
    const refused = await api.call('startSession', { body: START_BODY });
    expect(expectError(refused, 429, 'disk_quota').message).toMatch(/20 MB/);
    await expect.poll(async () => (await api.call('act', { id, body: CLICK })).status, { timeout: 10_000, interval: 500 }).toBe(429);
    rmSync(filler);
    const again = await api.call('startSession', { body: START_BODY });
    expectOk(again);
    for (const sessionId of [id, again.body.data.sessionId]) expectOk(await api.call('endSession', { id: sessionId }));
  });

  it('deletes a session\'s downloads when it ends', async () => {
    const id = await sessionOnDownloadPage(2);
    const finished = downloads.next();
    expectOk(await api.call('act', { id, body: CLICK }));
    expect((await finished).aborted).toBe(false);
    await expect.poll(() => downloadedFiles().filter((file) => file.size === 2 * MIB).length, { timeout: 10_000 }).toBe(1);
    const [file] = downloadedFiles().filter((entry) => entry.size === 2 * MIB);
    expectOk(await api.call('endSession', { id }));
    expect(existsSync(file!.path)).toBe(false);
  });

  it('stores all of an upload or none of it: 12 multipart uploads of 4 MB at once, each refused one leaves nothing', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => sessionOnDownloadPage(1)));
    const requests = ids.flatMap((id, s) =>
      [0, 1, 2, 3].map((r) => {
        const form = new FormData();
        for (let p = 0; p < 4; p++) form.append('file', new Blob([Buffer.alloc(1_000_000, p)]), `s${s}-r${r}-p${p}.bin`);
        return { id, prefix: `s${s}-r${r}-`, sent: api.call('uploadFile', { id, raw: form }) };
      }),
    );
    const answers = await Promise.all(requests.map((request) => request.sent));
    const held = new Map<string, string[]>();
    for (const id of ids) {
      const listed = await api.call('listFiles', { id });
      expectOk(listed);
      held.set(id, listed.body.data.files.map((file: { name: string }) => file.name));
    }
    requests.forEach(({ id, prefix }, k) => {
      const answer = answers[k]!;
      const kept = held.get(id)!.filter((name) => name.startsWith(prefix));
      if (answer.status === 200) expect(kept, prefix).toHaveLength(4);
      else {
        expectError(answer, 429, 'disk_quota');
        expect(kept, `${prefix} answered 429`).toEqual([]);
      }
    });
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
    expect(projectBytes()).toBeLessThanOrEqual(20 * MIB);
    for (const id of ids) expectOk(await api.call('endSession', { id }));
  });

  it('holds the quota while downloads and uploads run at once: 4 downloads of 6 MB and 8 uploads of 3 MB against 20 MB', async () => {
    const ids = await Promise.all([0, 1, 2, 3].map(() => sessionOnDownloadPage(6, true)));
    const finished = ids.map(() => downloads.next());
    const answers = await Promise.all(
      ids.flatMap((id, s) => [
        api.call('act', { id, body: CLICK }),
        ...[0, 1].map((u) => api.call('uploadFile', { id, query: { name: `s${s}-u${u}.bin` }, raw: Buffer.alloc(3 * MIB, u) })),
      ]),
    );
    for (const answer of answers) if (answer.status !== 200) expectError(answer, 429, 'disk_quota');
    await Promise.all(finished);
    // Downloads done or cancelled: what each session kept is in its folder once the browser hands it over.
    for (const id of ids) expectOk(await api.call('listDownloads', { id }));
    // Chromium removes a cancelled download's partial file a moment after it hangs up.
    await expect.poll(projectBytes, { timeout: 5_000 }).toBeLessThanOrEqual(20 * MIB);
    for (const id of ids) expectOk(await api.call('endSession', { id }));
  });

  it('drops downloads of unknown size that arrive whole past the quota: 4 of 7 MB at once against 20 MB', async () => {
    const { ids, kept } = await downloadAllAtOnce(4, 7);
    // What fits is kept whole (two of 7 MiB), what arrived past the quota is not.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(20 * MIB);
    await expect.poll(projectBytes, { timeout: 5_000 }).toBeLessThanOrEqual(20 * MIB);
    for (const id of ids) expectOk(await api.call('endSession', { id }));
  });

  it('drops downloads a client saves over the cdpUrl that arrive whole past the quota: 8 of 7 MB at once against 20 MB', async () => {
    const start = await api.call('startSession', { body: START_BODY });
    expectOk(start);
    const { sessionId: id, cdpUrl } = start.body.data as { sessionId: string; cdpUrl: string };
    const cdp = await rawCdp(cdpUrl);
    try {
      const page = (await cdp.send('Target.getTargets')).result!.targetInfos!.find((t) => t.type === 'page')!;
      const pageSession = (await cdp.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })).result!.sessionId as string;
      expect((await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', eventsEnabled: true })).error).toBeUndefined();
      expect((await cdp.send('Page.navigate', { url: `${downloads.url}/page?mb=7&burst=1` }, pageSession)).error).toBeUndefined();
      const loaded = async () => (await cdp.send('Runtime.evaluate', { expression: 'document.readyState', returnByValue: true }, pageSession)).result?.result;
      await expect.poll(loaded, { timeout: 10_000 }).toMatchObject({ value: 'complete' });
      const finished = Array.from({ length: 8 }, () => downloads.next());
      // A name of its own each: Chromium saves a relayed download under the page's name, replacing a file of that name.
      const click = `for (let k = 1; k <= 8; k++) { const a = document.querySelector("#dl").cloneNode(); a.download = "data-" + k + ".bin"; document.body.append(a); a.click(); }`;
      expect((await cdp.send('Runtime.evaluate', { expression: click, userGesture: true }, pageSession)).error).toBeUndefined();
      await Promise.all(finished);
      const ended = () => cdp.events.filter((event) => event.method === 'Browser.downloadProgress' && event.params.state !== 'inProgress').length;
      await expect.poll(ended, { timeout: 10_000 }).toBe(8);
      // What fits is kept whole (at most two of 7 MiB), what arrived past the quota is not, in the session's listing and on disk.
      const kept = async () => {
        const listed = await api.call('listDownloads', { id });
        expectOk(listed);
        return (listed.body.data.files as Array<{ size: number }>).map((file) => file.size);
      };
      await expect.poll(async () => (await kept()).reduce((sum, size) => sum + size, 0), { timeout: 5_000 }).toBeLessThanOrEqual(20 * MIB);
      for (const size of await kept()) expect(size).toBe(7 * MIB);
      await expect.poll(projectBytes, { timeout: 5_000 }).toBeLessThanOrEqual(20 * MIB);
    } finally {
      cdp.close();
      expectOk(await api.call('endSession', { id }));
    }
  });

  // The race behind a rare failure of the unknown-size test above: a walk of the project while a finished download was
  // renamed by Chromium, or moved by its session from the browser's folder into the data directory, missed
  // the file yet marked it seen, so it fell out of the ledger and a later download was kept past the quota.
  // More browsers (longer walks) and more downloads finishing together make that window wide.
  it('holds the quota over rounds of downloads arriving whole at once: 6 of 5 MB against 20 MB, 3 rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const { ids, kept } = await downloadAllAtOnce(6, 5);
      expect(kept.reduce((sum, size) => sum + size, 0), `round ${round}`).toBeLessThanOrEqual(20 * MIB);
      await expect.poll(projectBytes, { timeout: 5_000 }).toBeLessThanOrEqual(20 * MIB);
      for (const id of ids) expectOk(await api.call('endSession', { id }));
    }
  }, 120_000);
});
