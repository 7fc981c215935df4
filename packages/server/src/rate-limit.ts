// A request rate per project (not per key: a project's keys share it), as a token bucket (core's
// TokenBuckets): short bursts pass and a steady flood does not.
import { createMiddleware } from 'hono/factory';
import { DeckhandError, TokenBuckets } from '@deckhand/core';
import type { ProjectLimits } from './config';
import type { AppEnv } from './env';

/** Runs after authentication (it needs the project); projects without a rate pass freely. */
export function rateLimit(limitsOf: (projectId: string) => ProjectLimits) {
  // One bucket per configured project (or the open one), so the map stays as small as the key list.
  const buckets = new TokenBuckets();
  return createMiddleware<AppEnv>(async (c, next) => {
    const projectId = c.get('projectId');
    // A request another node forwarded was counted there.
    if (c.env?.internal) return next();
    const { rate } = limitsOf(projectId);
    const seconds = rate ? buckets.take(projectId, rate) : undefined;
    if (seconds !== undefined) {
      throw new DeckhandError('rate_limited', `This project sent more than ${rate} requests a second; retry in ${seconds} s`, undefined, { retryAfterSeconds: seconds });
    }
    return next();
  });
}
