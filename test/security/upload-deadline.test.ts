// Issue: a file sent to a session (POST …/files) whose body trickles in, or stops half way, held its
// request open forever. The body now has the deadline of an operation (DECKHAND_DEFAULT_TIMEOUT_MS):
// past it the client gets 408 `timeout` in the one error shape, and nothing of the file is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, START_BODY } from '../support/contract';
import { driverFor, type Driver } from '../support/drivers';
import { sendHalfBody } from '../support/half-sent-body';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let api: Driver;

beforeAll(async () => {
  server = await startTestServer({ DECKHAND_DEFAULT_TIMEOUT_MS: '2000' });
  api = driverFor(server.url);
});
afterAll(async () => {
  await server?.close();
});

async function session(): Promise<string> {
  const started = await api.call('startSession', { body: START_BODY });
  expectOk(started);
  return started.body.data.sessionId as string;
}

const BOUNDARY = 'deadline-boundary';
const CASES: Array<{ name: string; query: string; headers: Record<string, string>; start: string }> = [
  { name: 'a raw body of declared length', query: '?name=slow.bin', headers: { 'content-type': 'application/octet-stream', 'content-length': '1000' }, start: 'x'.repeat(100) },
  { name: 'a chunked raw body', query: '?name=slow.bin', headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' }, start: '64\r\n' + 'x'.repeat(100) + '\r\n' },
  {
    name: 'a multipart body',
    query: '',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': '1000' },
    start: `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="slow.bin"\r\ncontent-type: application/octet-stream\r\n\r\n${'x'.repeat(100)}`,
  },
];

describe('a file sent slowly', () => {
  for (const { name, query, headers, start } of CASES) {
    it(`${name} that stops half way is answered 408, and nothing is stored`, async () => {
      const id = await session();
      const reply = await sendHalfBody(server.url, `/v1/sessions/${id}/files${query}`, headers, start).answer;
      expect(reply.status).toBe(408);
      expect(reply.body).toMatchObject({ success: false, code: 'timeout', message: expect.stringMatching(/did not arrive within 2000 ms/) });
      const files = await api.call('listFiles', { id });
      expectOk(files);
      expect(files.body.data.files).toEqual([]);
      // The session is fine: a file sent whole is stored.
      expectOk(await api.call('uploadFile', { id, query: { name: 'whole.bin' }, raw: new Uint8Array([1, 2, 3]) }));
      expectOk(await api.call('endSession', { id }));
    });
  }
});
