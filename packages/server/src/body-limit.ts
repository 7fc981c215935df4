// Request bodies over the limit are refused with 413, but only once the client has finished sending:
// a server that answers and closes mid-upload makes the client see EPIPE or ECONNRESET instead of the
// answer. The rest of an oversized upload is read and dropped, up to DRAIN_LIMIT_BYTES; past that the
// answer goes out at once and the connection is closed.
import { createMiddleware } from 'hono/factory';
import { DeckhandError } from '@deckhand/core';
import type { AppEnv } from './env';

/** The most of an oversized upload read (and dropped) so the client can finish sending and read the 413. */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

export function bodyLimit(maxBytes: number) {
  const tooLarge = () => new DeckhandError('payload_too_large', `Request body is larger than ${maxBytes} bytes`);
  return createMiddleware<AppEnv>(async (c, next) => {
    const length = c.req.header('content-length');
    const declared = length === undefined || c.req.header('transfer-encoding') ? undefined : Number(length);
    // A declared length is enforced by the HTTP parser, so a body within it needs no counting here. Decided
    // from the headers alone: touching `body` would make the Node adapter build a web Request and stream.
    if (declared !== undefined && declared <= maxBytes) return next();
    const body = c.req.raw.body;
    if (!body) return next();
    if (declared !== undefined && declared > DRAIN_LIMIT_BYTES) {
      c.header('connection', 'close');
      throw tooLarge();
    }
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        if (!(await drained(reader, DRAIN_LIMIT_BYTES - size))) c.header('connection', 'close');
        throw tooLarge();
      }
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: concat(chunks, size) });
    return next();
  });
}

/** Reads the rest of a body and drops it; false when it goes on past `budget` bytes. */
async function drained(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<boolean> {
  let left = budget;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    left -= value.byteLength;
    if (left < 0) {
      await reader.cancel().catch(() => undefined);
      return false;
    }
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
