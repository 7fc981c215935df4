// Outside tester (10): a JSON body whose content-length promised more than was sent held its request
// forever (no answer), and a client closing such a request logged "unexpected error Error: aborted"
// with a stack. Every JSON body now has the deadline of an operation (DECKHAND_DEFAULT_TIMEOUT_MS):
// past it 408 `timeout` in the one error shape; a client that goes away is logged as a known failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendHalfBody } from '../support/half-sent-body';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ DECKHAND_DEFAULT_TIMEOUT_MS: '1500' });
});
afterAll(async () => {
  await server?.close();
});

/** A JSON request's head and only the first bytes of the body its content-length promises. */
const sendShort = (path: string, start: string) =>
  sendHalfBody(server.url, path, { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': '1000' }, start);

describe('a JSON body shorter than its content-length', () => {
  it.each(['/v1/sessions/start', '/mcp'])('on %s is answered 408 timeout in the error shape', async (path) => {
    const { answer } = sendShort(path, '{"modelName":');
    const { status, body } = await answer;
    expect(status).toBe(408);
    expect(body).toMatchObject({ success: false, code: 'timeout', message: expect.stringMatching(/did not arrive within 1500 ms/) });
  }, 15_000);

  it('closed by the client is logged without a stack, as no server fault', async () => {
    const { answer, close } = sendShort('/v1/sessions/start', '{"modelName":');
    answer.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    close();
    await expect.poll(() => server.logs.filter((line) => /request failed|unexpected/.test(line)).join("\n"), { timeout: 5000 }).toMatch(/aborted|closed/);
    expect(server.logs.filter((line) => /unexpected error|\n\s+at /.test(line))).toEqual([]);
  }, 15_000);
});
