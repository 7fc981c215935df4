// A rate per key as a token bucket: `rate` tokens a second, holding at most two seconds' worth (never
// less than one), so short bursts pass and a steady flood does not. The server's per-project request
// rate and MCP's initialize rate both count this way.
import { performance } from 'node:perf_hooks';

interface Bucket {
  tokens: number;
  /** performance.now() of the last refill. */
  at: number;
}

export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();

  /** Takes a token for `key` at `rate` a second: undefined when one was there, else whole seconds to wait for one. */
  take(key: string, rate: number): number | undefined {
    const burst = Math.max(1, Math.ceil(2 * rate));
    const now = performance.now();
    const bucket = this.#buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens < 1) return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
    bucket.tokens -= 1;
    return undefined;
  }
}
