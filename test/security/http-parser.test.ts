// What the HTTP parser refuses, before any route runs, still gets the one error shape and a request
// id: a header over the parser's limit, a malformed Content-Length, an Expect the server cannot meet, an
// HTTP/1.1 request with no Host, a Host or target no URL can be made of, a CONNECT, and a body over the body limit (answered as 413, never a reset, whether its length is declared or it arrives chunked).
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useContract } from '../support/contract';

const ctx = useContract();

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * Sends raw bytes on a fresh socket and reads one HTTP/1.1 answer. The upload is written piece by
 * piece, each after the last was flushed, as a client streaming an upload does, and all of it is
 * written even when the answer comes first; `uploadError` says whether the server cut the upload
 * (what a client sees as EPIPE or ECONNRESET instead of the answer).
 */
function exchange(head: string, body: Buffer[] = []): Promise<RawReply & { uploadError?: string }> {
  const { port } = new URL(ctx.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = Buffer.alloc(0);
    let uploadError: string | undefined;
    let reply: RawReply | undefined;
    let uploaded = false;
    const finish = () => {
      if (!reply || !(uploaded || uploadError)) return;
      socket.destroy();
      resolve({ ...reply, uploadError });
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      reply ??= parseReply(received.toString('utf8'), false);
      finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      uploadError ??= error.code ?? error.message;
      finish();
    });
    socket.on('close', () => {
      reply ??= parseReply(received.toString('utf8'), true);
      if (!reply) reject(new Error(`connection closed (${uploadError ?? 'no error'}) before a whole answer: ${JSON.stringify(received.toString('utf8').slice(0, 200))}`));
      else resolve({ ...reply, uploadError });
    });
    const parts = [Buffer.from(head), ...body];
    const next = () => {
      const part = parts.shift();
      if (!part) {
        uploaded = true;
        return finish();
      }
      if (!socket.destroyed) socket.write(part, (error) => (error ? undefined : setImmediate(next)));
    };
    next();
  });
}

/** The answer in `text`, once it is complete (by content-length, chunked end, or the connection's end). */
function parseReply(text: string, final: boolean): RawReply | undefined {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  let bodyText = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    if (!bodyText.endsWith('0\r\n\r\n')) return undefined;
    bodyText = dechunk(bodyText);
  } else if (headers['content-length'] !== undefined) {
    if (Buffer.byteLength(bodyText) < Number(headers['content-length'])) return undefined;
  } else if (!final) return undefined;
  return { status: Number(statusLine!.split(' ')[1]), headers, body: bodyText ? JSON.parse(bodyText) : undefined };
}

function dechunk(text: string): string {
  let out = '';
  for (let rest = text; ; ) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** 64 KiB pieces of an upload. */
function pieces(body: Buffer): Buffer[] {
  return Array.from({ length: Math.ceil(body.length / 65_536) }, (_, k) => body.subarray(k * 65_536, (k + 1) * 65_536));
}

function expectShape(reply: RawReply, status: number, code: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body).toMatchObject({ success: false, code, message: expect.any(String) });
  expect(reply.headers['x-request-id']).toBeTruthy();
  expect(reply.headers['content-type']).toContain('application/json');
}

describe.skipIf(process.env.CONTRACT_DRIVER === 'client')('HTTP parser errors', () => {
  it('answers a header over 16 KB with 431 in the error shape', async () => {
    const reply = await exchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectShape(reply, 431, 'headers_too_large');
  });

  it('answers a malformed Content-Length with 400 in the error shape', async () => {
    const reply = await exchange('POST /v1/sessions/start HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 12abc\r\n\r\n{}');
    expectShape(reply, 400, 'validation_error');
    const twice = await exchange('POST /v1/sessions/start HTTP/1.1\r\nHost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}');
    expectShape(twice, 400, 'validation_error');
  });

  it('answers an Expect other than 100-continue with 417 in the error shape, on any route', async () => {
    expectShape(await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n'), 417, 'expectation_failed');
    const body = '{"browserbaseSessionCreateParams":{}}';
    const reply = await exchange(`POST /v1/sessions/start HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nExpect: foo\r\n\r\n${body}`);
    expectShape(reply, 417, 'expectation_failed');
  });

  it('answers a garbled request line with 400 in the error shape', async () => {
    expectShape(await exchange('BLAH\u0001 / HTTP/1.1\r\n\r\n'), 400, 'validation_error');
  });

  it('answers an HTTP/1.1 request with no Host with 400 in the error shape, and still serves HTTP/1.0 without one', async () => {
    const reply = await exchange('GET /healthz HTTP/1.1\r\n\r\n');
    expectShape(reply, 400, 'validation_error');
    expect(reply.body.message).toMatch(/Host/);
    const older = await exchange('GET /healthz HTTP/1.0\r\n\r\n');
    expect(older.status).toBe(200);
    expect(older.body).toMatchObject({ ok: true });
  });

  it('answers a Host or a target no URL can be made of with 400 in the error shape', async () => {
    for (const head of [
      'GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x/y\r\n\r\n',
      'GET /\\healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET http://[x/healthz HTTP/1.1\r\nHost: x\r\n\r\n',
    ]) {
      const reply = await exchange(head);
      expectShape(reply, 400, 'validation_error');
      expect(reply.headers.connection, head).toBe('close');
    }
  });

  it('answers a CONNECT with 404 in the error shape, as any other method with no route', async () => {
    expectShape(await exchange('CONNECT x:80 HTTP/1.1\r\nHost: x:80\r\n\r\n'), 404, 'route_not_found');
  });

  it('answers an invalid header character with 400, and a request line over the header limit with 431, in the error shape', async () => {
    expectShape(await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nx-a: b\u0001c\r\n\r\n'), 400, 'validation_error');
    expectShape(await exchange(`GET /healthz?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, 'headers_too_large');
  });

  it('answers a 5 MiB body with 413, declared or chunked, every time', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 'a');
    for (let i = 0; i < 5; i++) {
      const declared = await exchange(
        `POST /v1/sessions/start HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
        pieces(body),
      );
      expectShape(declared, 413, 'payload_too_large');
      expect(declared.uploadError).toBeUndefined();
      const chunks = pieces(body).map((piece) => Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
      const chunked = await exchange(
        'POST /v1/sessions/start HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
        [...chunks, Buffer.from('0\r\n\r\n')],
      );
      expectShape(chunked, 413, 'payload_too_large');
      expect(chunked.uploadError).toBeUndefined();
    }
  });
});
