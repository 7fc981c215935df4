// Work a client can start many of at once (a live-page picture is a screenshot in the session's
// browser), bounded by how many run at a time per key: past a key's limit a new one is a 429 at once,
// rather than another screenshot piled onto a browser that is already busy with them.
import { DeckhandError, KeyedCounts } from '@deckhand/core';

/** How long a refused picture is told to wait: the live page asks about every 0.6 s. */
const RETRY_AFTER_S = 1;

export class InFlight {
  readonly #counts = new KeyedCounts();

  /** Runs `work` when every key is under its limit (0: none), counted against all of them while it runs. */
  async run<T>(keys: Array<{ key: string; limit: number; what: string }>, work: () => Promise<T>): Promise<T> {
    for (const { key, limit, what } of keys) {
      if (limit && this.#counts.get(key) >= limit) {
        throw new DeckhandError('rate_limited', `${what} already has ${limit} live pictures being taken; retry in ${RETRY_AFTER_S} s`, undefined, { retryAfterSeconds: RETRY_AFTER_S });
      }
    }
    for (const { key } of keys) this.#counts.add(key);
    try {
      return await work();
    } finally {
      for (const { key } of keys) this.#counts.release(key);
    }
  }
}
