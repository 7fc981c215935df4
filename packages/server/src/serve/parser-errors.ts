// Requests Node's HTTP server refuses itself (a header section over its limit, a malformed Content-Length
// or request line, an Expect other than 100-continue, a CONNECT), an HTTP/1.1 request with no Host (Node
// would refuse it; node.ts lets it through to be refused here), and one @hono/node-server cannot make a URL
// of (a Host or target that is not one) never reach the app, and would get a bare status line. They get
// the one error shape and a request id like every other answer, and the connection is closed after.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError } from '@hono/node-server';
import type { ErrorCode } from '@deckhand/core';
import { ERROR_STATUS } from '@deckhand/core';
import { errorBody } from '../errors';

const ANSWERS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: 'Request headers are larger than the server accepts (16 KB)' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'timeout', message: 'The request did not arrive in time' },
  ERR_HTTP_HEADERS_TIMEOUT: { code: 'timeout', message: 'The request headers did not arrive in time' },
};
const MALFORMED = { code: 'validation_error', message: 'Malformed HTTP request' } as const;

/** An answer in the error shape: its status, headers (a fresh request id; the connection closed after) and body. */
function refusal(code: ErrorCode, message: string) {
  const body = JSON.stringify(errorBody(code, message));
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': randomUUID(), connection: 'close' };
  return { status: ERROR_STATUS[code], headers, body };
}

/** Writes an answer on a bare socket (no response object exists yet) and ends it. */
export function writeRaw(socket: Duplex, status: number, headers: Record<string, string>, body: string): void {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${lines.join('')}\r\n${body}`);
}

/** The `clientError` listener of a Node HTTP server. */
export function answerParserError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A client that went away (or a socket already answered) gets nothing more.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { code, message } = ANSWERS[error.code ?? ''] ?? MALFORMED;
  const { status, headers, body } = refusal(code, message);
  writeRaw(socket, status, headers, body);
}

/** The `connect` listener of a Node HTTP server: no route takes CONNECT (this is no proxy), as for any other method with none. */
export function answerConnect(request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  const { status, headers, body } = refusal('route_not_found', `No route for CONNECT ${request.url ?? ''}`);
  writeRaw(socket, status, headers, body);
}

function answer(response: ServerResponse, code: ErrorCode, message: string): void {
  const { status, headers, body } = refusal(code, message);
  response.writeHead(status, headers);
  response.end(body);
}

/** The `checkExpectation` listener of a Node HTTP server: an Expect it cannot meet (only `100-continue` is) is a 417. */
export function answerExpectation(_request: IncomingMessage, response: ServerResponse): void {
  answer(response, 'expectation_failed', 'The Expect header may only be 100-continue: send the request without it');
}

/** HTTP/1.1 requires a Host; HTTP/1.0 does not (such a request is served on the listen address). */
export function answerMissingHost(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.headers.host !== undefined || request.httpVersion !== '1.1') return false;
  answer(response, 'validation_error', 'Malformed HTTP request: an HTTP/1.1 request needs a Host header');
  return true;
}

/**
 * @hono/node-server's `errorHandler`: a request it could make no URL of (a RequestError: a Host that is no host,
 * a backslash in the path, `*`). Anything else was thrown by the app's fetch, which maps its own errors: never expected.
 */
export function answerRequestError(error: unknown): Response {
  const { status, headers, body } =
    error instanceof RequestError ? refusal('validation_error', `Malformed HTTP request: ${error.message.toLowerCase()}`) : refusal('internal_error', 'Internal error');
  return new Response(body, { status, headers });
}
