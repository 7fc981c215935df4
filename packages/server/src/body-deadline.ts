// A request body must arrive whole within a deadline: one that trickles in, or stops half way, held its
// request (and what it had read) forever. Past the deadline whatever reads the body (the body limit, the
// route) fails with 408 `timeout`, before anything of it was used; the connection closes after the answer.
import { createMiddleware } from 'hono/factory';
import { DeckhandError } from '@deckhand/core';
import type { AppEnv } from './env';

export function bodyDeadline(ms: number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const late = new DeckhandError('timeout', `The request body did not arrive within ${ms} ms (DECKHAND_DEFAULT_TIMEOUT_MS): nothing of it was stored`);
    const reader = body.getReader();
    let timer: NodeJS.Timeout | undefined;
    const timed = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setTimeout(() => {
          // The client is still sending: the answer goes out, then the connection closes.
          c.header('connection', 'close');
          controller.error(late);
        }, ms);
      },
      async pull(controller) {
        const { done, value } = await reader.read();
        // Past the deadline the stream has already failed: what arrives after is dropped.
        try {
          if (done) controller.close();
          else controller.enqueue(value);
        } catch {
          return;
        }
        if (done) clearTimeout(timer);
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    c.req.raw = new Request(c.req.raw, { body: timed, duplex: 'half' } as RequestInit);
    try {
      await next();
    } finally {
      clearTimeout(timer);
    }
  });
}
