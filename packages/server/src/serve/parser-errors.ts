// Requests Node's HTTP server refuses itself (a header section over its limit, a malformed Content-Length
// or request line, an Expect other than 100-continue) never reach the app, and Node would answer them with
// a bare status line. They get the one error shape and a request id like every other answer.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@deckhand/core';
import { ERROR_STATUS } from '@deckhand/core';
import { errorBody } from '../errors';

const ANSWERS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: 'Request headers are larger than the server accepts (16 KB)' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'timeout', message: 'The request did not arrive in time' },
  ERR_HTTP_HEADERS_TIMEOUT: { code: 'timeout', message: 'The request headers did not arrive in time' },
};
const MALFORMED = { code: 'validation_error', message: 'Malformed HTTP request' } as const;

/** The `clientError` listener of a Node HTTP server. */
export function answerParserError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A client that went away (or a socket already answered) gets nothing more.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { code, message } = ANSWERS[error.code ?? ''] ?? MALFORMED;
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The `checkExpectation` listener of a Node HTTP server: an Expect it cannot meet (only `100-continue` is) is a 417. */
export function answerExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify(errorBody('expectation_failed', 'The Expect header may only be 100-continue: send the request without it'));
  response.writeHead(ERROR_STATUS.expectation_failed, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-request-id': randomUUID(),
    connection: 'close',
  });
  response.end(body);
}
