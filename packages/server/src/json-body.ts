// A JSON request body is read once, here, within the deadline of an operation: one whose
// content-length promised more than was sent held its request forever. A timer runs only while the body
// is being read (a small body has usually arrived with its head, so this costs one timer). An empty
// body counts as `{}` (clients send a 0-byte body to `end`); the schema then decides.
import { createMiddleware } from 'hono/factory';
import { DeckhandError } from '@deckhand/core';
import type { AppEnv } from './env';

export function jsonBodyWithin(ms: number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const raw = c.req.raw;
    if (raw.method !== 'POST' || !/json/i.test(raw.headers.get('content-type') ?? '')) return next();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // The client may still be sending: the answer goes out, then the connection closes.
        c.header('connection', 'close');
        reject(new DeckhandError('timeout', `The request body did not arrive within ${ms} ms (DECKHAND_DEFAULT_TIMEOUT_MS): send as many bytes as content-length says`));
      }, ms);
    });
    let text: string;
    try {
      // c.req.text() reads the body into Hono's body cache, where the json validator's c.req.json() reads it.
      text = await Promise.race([c.req.text(), late]);
    } catch (error) {
      if (error instanceof DeckhandError) throw error;
      // The client closed the connection mid-body: nobody reads this answer, and it is no server fault (no stack in the log).
      throw new DeckhandError('validation_error', 'The client closed the connection before its request body arrived whole', undefined, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    // That cache holds promises at runtime (hono/dist/request.js #cachedBody), whatever its declared type says.
    if (text.trim() === '') c.req.bodyCache.text = Promise.resolve('{}') as unknown as string;
    return next();
  });
}
