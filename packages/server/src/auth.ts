// API keys are project-scoped: the key names the project, and a key only sees its project's sessions.
import { createMiddleware } from 'hono/factory';
import { DeckhandError } from '@deckhand/core';
import { OPEN_PROJECT } from './config';
import type { AppEnv } from './env';

function presentedKey(header: (name: string) => string | undefined): string | undefined {
  const direct = header('x-bb-api-key');
  if (direct) return direct;
  const bearer = header('authorization')?.match(/^Bearer\s+(.+)$/i);
  return bearer?.[1];
}

export function authenticate(apiKeys: ReadonlyMap<string, string>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    // A request forwarded by another node of the cluster, which authenticated the client's key.
    const forwarded = c.env?.internal?.projectId;
    if (forwarded) {
      c.set('projectId', forwarded);
      return next();
    }
    if (apiKeys.size === 0) {
      c.set('projectId', OPEN_PROJECT);
      return next();
    }
    const key = presentedKey((name) => c.req.header(name));
    if (!key) throw new DeckhandError('unauthorized', 'Missing API key: send it in the x-bb-api-key header');
    const projectId = apiKeys.get(key);
    if (!projectId) throw new DeckhandError('unauthorized', 'Unknown API key');
    c.set('projectId', projectId);
    return next();
  });
}
