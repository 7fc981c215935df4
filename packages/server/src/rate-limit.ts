// A request rate per project (not per key: a project's keys share it), as a token bucket: `rate`
// tokens a second, holding at most two seconds' worth, so short bursts pass and a steady flood does not.
import { performance } from 'node:perf_hooks';
import { createMiddleware } from 'hono/factory';
import { DeckhandError } from '@deckhand/core';
import type { ProjectLimits } from './config';
import type { AppEnv } from './env';

interface Bucket {
  tokens: number;
  /** performance.now() of the last refill. */
  at: number;
}

/** Bucket capacity: two seconds' worth of requests, and never less than one. */
function burstOf(rate: number): number {
  return Math.max(1, Math.ceil(2 * rate));
}

/** Runs after authentication (it needs the project); projects without a rate pass freely. */
export function rateLimit(limitsOf: (projectId: string) => ProjectLimits) {
  // One bucket per configured project (or the open one), so the map stays as small as the key list.
  const buckets = new Map<string, Bucket>();
  return createMiddleware<AppEnv>(async (c, next) => {
    const projectId = c.get('projectId');
    const { rate } = limitsOf(projectId);
    if (rate) {
      const now = performance.now();
      const bucket = buckets.get(projectId) ?? { tokens: burstOf(rate), at: now };
      bucket.tokens = Math.min(burstOf(rate), bucket.tokens + ((now - bucket.at) / 1000) * rate);
      bucket.at = now;
      buckets.set(projectId, bucket);
      if (bucket.tokens < 1) {
        const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
        throw new DeckhandError('rate_limited', `This project sent more than ${rate} requests a second; retry in ${seconds} s`, undefined, { retryAfterSeconds: seconds });
      }
      bucket.tokens -= 1;
    }
    return next();
  });
}
