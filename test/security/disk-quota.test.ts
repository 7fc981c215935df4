// Downloads cannot fill the disk: a project's downloads and browser profiles are held to
// DECKHAND_PROJECT_DISK_MB. A download that would go past it is cancelled and nothing of it stays; a start
// or an operation while the quota is full is a 429 disk_quota; a session's downloads are gone when it ends.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_OWNER } from '../../packages/core/src/host/process-owner';
import { expectError, expectOk, START_BODY } from '../support/contract';
import { driverFor, type Driver } from '../support/drivers';
import { startTestServer, type TestServer } from '../support/test-server';

const MIB = 1024 * 1024;
const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-quota-test-'));

/** A page with a download link, and the download: `mb` MiB streamed without a length, 1 MiB every 10 ms. */
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
      res.end(`<a id="dl" href="/file?mb=${url.searchParams.get('mb')}" download="data.bin">Download</a>`);
      return;
    }
    const total = Number(url.searchParams.get('mb')) * MIB;
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    let sent = 0;
    const chunk = Buffer.alloc(MIB, 7);
    const done = (aborted: boolean) => waiting.shift()?.({ sent, aborted });
    res.on('close', () => {
      if (!res.writableFinished) done(true);
    });
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

async function sessionOnDownloadPage(mb: number): Promise<string> {
  const start = await api.call('startSession', { body: START_BODY });
  expectOk(start);
  const id = start.body.data.sessionId as string;
  expectOk(await api.call('navigate', { id, body: { url: `${downloads.url}/page?mb=${mb}` } }));
  return id;
}

const CLICK = { input: { selector: '#dl', method: 'click', arguments: [], description: 'the Download link' } };

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
});
