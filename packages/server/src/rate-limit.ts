// A request rate per project (not per key: a project's keys share it), as a token bucket (core's
// TokenBuckets, or Redis's on a cluster): short bursts pass and a steady flood does not.
import { createMiddleware } from 'hono/factory';
import { DeckhandError, TokenBuckets } from '@deckhand/core';
import type { ProjectLimits } from './config';
import type { AppEnv } from './env';

/** Where each project's bucket is kept: undefined when a token was taken, else whole seconds to wait for one. */
export interface ProjectRates {
  take(projectId: string, rate: number): Promise<number | undefined>;
}

/** One process's buckets: one per configured project (or the open one), so the map stays as small as the key list. */
export function inMemoryProjectRates(): ProjectRates {
  const buckets = new TokenBuckets();
  return { take: async (projectId, rate) => buckets.take(projectId, rate) };
}

/** The 429 for a request of `projectId` when its project is over its rate (taking a token otherwise); /v1 and hosted /mcp share it. */
export async function overRate(limitsOf: (projectId: string) => ProjectLimits, rates: ProjectRates, projectId: string): Promise<DeckhandError | undefined> {
  const { rate } = limitsOf(projectId);
  const seconds = rate ? await rates.take(projectId, rate) : undefined;
  if (seconds === undefined) return undefined;
  return new DeckhandError('rate_limited', `This project sent more than ${rate} requests a second; retry in ${seconds} s`, undefined, { retryAfterSeconds: seconds });
}

/** Runs after authentication (it needs the project); projects without a rate pass freely. */
export function rateLimit(limitsOf: (projectId: string) => ProjectLimits, rates: ProjectRates = inMemoryProjectRates()) {
  return createMiddleware<AppEnv>(async (c, next) => {
    // A request another node forwarded was counted there.
    if (c.env?.internal) return next();
    const refusal = await overRate(limitsOf, rates, c.get('projectId'));
    if (refusal) throw refusal;
    return next();
  });
}
