// A session's file endpoints reach only the regular files of its own folders: a name is one path segment,
// so encoded traversal (`..%2f`, `%2e%2e`), absolute paths and backslashes are refused, and a symlink
// placed in a folder is neither listed, read, deleted through nor written through. Uploads count toward
// the project's disk quota.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_OWNER } from '../../packages/core/src/host/process-owner';
import { expectError, expectOk, START_BODY } from '../support/contract';
import { driverFor, type Driver } from '../support/drivers';
import { startTestServer, type TestServer } from '../support/test-server';

const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-file-names-'));
const outside = mkdtempSync(join(tmpdir(), 'deckhand-outside-'));
const secret = join(outside, 'secret.txt');
const KEY = { 'x-bb-api-key': 'files-key' };

/** A request with its path sent byte for byte (fetch would resolve `..` first). */
function rawRequest(server: TestServer, method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/`, { method, path, headers: KEY }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('session file names', () => {
  let server: TestServer;
  let api: Driver;
  let id: string;

  beforeAll(async () => {
    writeFileSync(secret, 'TOP-SECRET');
    server = await startTestServer({ DECKHAND_DATA_DIR: dataDir, DECKHAND_API_KEYS: 'files-key:files:rate=1000', DECKHAND_PROJECT_DISK_MB: '1' });
    api = driverFor(server.url, KEY);
    const started = await api.call('startSession', { body: START_BODY });
    expectOk(started);
    id = started.body.data.sessionId;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses traversal, absolute and backslashed names, and never answers with a file outside', async () => {
    // A file of the project beside the session folders: one `..` away from them.
    mkdirSync(join(dataDir, 'files'), { recursive: true });
    writeFileSync(join(dataDir, 'files', 'escaped.txt'), 'PROJECT-FILE');
    const attempts = [
      `..%2f..%2f..%2f${encodeURIComponent(secret)}`,
      '..%2fescaped.txt',
      '%2e%2e%2fescaped.txt',
      '%2e%2e',
      '..',
      encodeURIComponent(secret),
      '..%5c..%5cescaped.txt',
      '%00escaped.txt',
      '../../../../etc/passwd',
    ];
    for (const folder of ['downloads', 'files']) {
      for (const name of attempts) {
        for (const method of ['GET', 'DELETE']) {
          const reply = await rawRequest(server, method, `/v1/sessions/${id}/${folder}/${name}`);
          expect([400, 404], `${method} ${folder}/${name}: ${reply.status} ${reply.body}`).toContain(reply.status);
          expect(reply.body).not.toContain('TOP-SECRET');
          expect(reply.body).not.toContain('PROJECT-FILE');
        }
      }
    }
    for (const name of ['../escaped.txt', secret, '..', 'a\\..\\b']) {
      expectError(await api.call('uploadFile', { id, query: { name }, raw: new TextEncoder().encode('overwritten') }), 400, 'validation_error');
    }
    expect(readFileSync(secret, 'utf8')).toBe('TOP-SECRET');
    expect(readFileSync(join(dataDir, 'files', 'escaped.txt'), 'utf8')).toBe('PROJECT-FILE');
  }, 60_000);

  it('neither lists, reads, deletes nor writes through a symlink placed in a session folder', async () => {
    expectOk(await api.call('listDownloads', { id }));
    expectOk(await api.call('uploadFile', { id, query: { name: 'real.txt' }, raw: new TextEncoder().encode('real') }));
    const downloads = join(dataDir, 'files', 'downloads', PROCESS_OWNER, id);
    const uploads = join(dataDir, 'files', 'files', PROCESS_OWNER, id);
    symlinkSync(secret, join(downloads, 'leak.txt'));
    symlinkSync(secret, join(uploads, 'leak.txt'));

    expect((await api.call('listDownloads', { id })).body.data.files).toEqual([]);
    expect((await api.call('listFiles', { id })).body.data.files.map((f: { name: string }) => f.name)).toEqual(['real.txt']);
    const read = await api.call('getDownload', { id, name: 'leak.txt' });
    expectError(read, 404, 'file_not_found');
    expectError(await api.call('deleteDownload', { id, name: 'leak.txt' }), 404, 'file_not_found');
    expectError(await api.call('deleteFile', { id, name: 'leak.txt' }), 404, 'file_not_found');
    const set = await api.call('act', { id, body: { input: { selector: 'body', method: 'setInputFiles', arguments: ['leak.txt'] } } });
    expect(set.body.data.result).toMatchObject({ success: false, message: expect.stringContaining('No file named "leak.txt"') });

    // An upload of the same name replaces the link itself; the file it pointed at is untouched.
    expectOk(await api.call('uploadFile', { id, query: { name: 'leak.txt' }, raw: new TextEncoder().encode('replaced') }));
    expect(readFileSync(secret, 'utf8')).toBe('TOP-SECRET');
    expect(existsSync(secret)).toBe(true);
  });

  it('holds uploads to the disk quota (429 disk_quota), and frees it when a file is deleted', async () => {
    const half = new Uint8Array(600 * 1024);
    expectOk(await api.call('uploadFile', { id, query: { name: 'a.bin' }, raw: half }));
    const refused = expectError(await api.call('uploadFile', { id, query: { name: 'b.bin' }, raw: half }), 429, 'disk_quota');
    expect(refused.message).toMatch(/would hold 2 MB, its disk quota is 1 MB/);
    expectError(await api.call('getDownload', { id, name: 'b.bin' }), 404, 'file_not_found');
    expectOk(await api.call('deleteFile', { id, name: 'a.bin' }));
    expectOk(await api.call('uploadFile', { id, query: { name: 'b.bin' }, raw: half }));
  });
});
