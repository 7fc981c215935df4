// What an outside tester broke through the files endpoint: a name of few characters but many bytes (500),
// parallel uploads that together went past the disk quota, and one body of thousands of file parts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, START_BODY } from '../support/contract';
import { driverFor, type Driver } from '../support/drivers';
import { startTestServer, type TestServer } from '../support/test-server';

const MIB = 1024 * 1024;
const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-upload-bounds-'));
const KEY = { 'x-bb-api-key': 'bounds-key' };

/** A multipart body of `count` one-byte files named "file", each under `name(i)`. */
function parts(count: number, name = (i: number) => `part-${i}.txt`): FormData {
  const form = new FormData();
  for (let i = 0; i < count; i++) form.append('file', new Blob(['x']), name(i));
  return form;
}

describe('upload bounds', () => {
  let server: TestServer;
  let api: Driver;

  beforeAll(async () => {
    server = await startTestServer({ DECKHAND_DATA_DIR: dataDir, DECKHAND_API_KEYS: 'bounds-key:bounds:rate=10000', DECKHAND_PROJECT_DISK_MB: '10' });
    api = driverFor(server.url, KEY);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function session(): Promise<string> {
    const started = await api.call('startSession', { body: START_BODY });
    expectOk(started);
    return started.body.data.sessionId as string;
  }

  it('refuses a name over 255 UTF-8 bytes with 400 naming the limit, raw or multipart', async () => {
    const id = await session();
    const name = 'é'.repeat(200); // 200 characters, 400 bytes
    const raw = expectError(await api.call('uploadFile', { id, query: { name }, raw: new Uint8Array([1]) }), 400, 'validation_error');
    expect(raw.message).toMatch(/255 bytes/);
    const multipart = expectError(await api.call('uploadFile', { id, raw: parts(1, () => name) }), 400, 'validation_error');
    expect(multipart.message).toMatch(/255 bytes/);
    expectOk(await api.call('uploadFile', { id, query: { name: 'é'.repeat(127) }, raw: new Uint8Array([1]) }));
    expectOk(await api.call('endSession', { id }));
  });

  it('never lets parallel uploads together go past the disk quota', async () => {
    const id = await session();
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api.call('uploadFile', { id, query: { name: `big-${i}.bin` }, raw: new Uint8Array(MIB) })),
    );
    const accepted = replies.filter((reply) => reply.status === 200).length;
    for (const reply of replies) if (reply.status !== 200) expectError(reply, 429, 'disk_quota');
    expect(accepted).toBeGreaterThan(0);
    const listed = await api.call('listFiles', { id });
    expectOk(listed);
    const held = (listed.body.data.files as Array<{ size: number }>).reduce((sum, file) => sum + file.size, 0);
    expect(held).toBeLessThanOrEqual(10 * MIB);
    expect(accepted).toBeLessThanOrEqual(10);
    expectOk(await api.call('endSession', { id }));
  }, 60_000);

  it('bounds the files of one request (20) and of one session (200)', async () => {
    const id = await session();
    const many = expectError(await api.call('uploadFile', { id, raw: parts(21) }), 400, 'validation_error');
    expect(many.message).toMatch(/20 files/);
    expect((await api.call('listFiles', { id })).body.data.files).toEqual([]);
    for (let batch = 0; batch < 10; batch++) expectOk(await api.call('uploadFile', { id, raw: parts(20, (i) => `b${batch}-${i}.txt`) }));
    const full = expectError(await api.call('uploadFile', { id, query: { name: 'one-more.txt' }, raw: new Uint8Array([1]) }), 429, 'disk_quota');
    expect(full.message).toMatch(/200 files/);
    // Replacing a file the session holds is not one more file.
    expectOk(await api.call('uploadFile', { id, query: { name: 'b0-0.txt' }, raw: new Uint8Array([2]) }));
    expectOk(await api.call('endSession', { id }));
  }, 60_000);
});
