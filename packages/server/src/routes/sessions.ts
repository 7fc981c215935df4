// Session lifecycle: start, end, replay.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { DeckhandError } from '@deckhand/core';
import { connectCdp, endSession, replaySession, startSession } from '../gen/routes.gen';
import { limitsOf } from '../config';
import type { AppEnv } from '../env';
import { handle } from '../route';
import type { RouteDeps } from './deps';

export function sessionRoutes(app: OpenAPIHono<AppEnv>, { sessions, cdp, config }: RouteDeps): void {
  handle(app, startSession, async (c) => {
    const body = c.req.valid('json');
    const modelApiKey = c.req.valid('header')['x-model-api-key'] || undefined;
    const projectId = c.get('projectId');
    const session = await sessions.start(projectId, body, { modelApiKey, projectMaxSessions: limitsOf(config, projectId).maxSessions });
    return c.json({ success: true, data: { sessionId: session.id, available: true, cdpUrl: cdp.urlFor(c.req.url, session, projectId) } });
  });

  handle(app, endSession, async (c) => {
    await sessions.end(c.get('projectId'), c.req.valid('param').id);
    return c.json({ success: true });
  });

  handle(app, replaySession, (c) => {
    const session = sessions.get(c.get('projectId'), c.req.valid('param').id);
    return c.json({ success: true, data: session.replay() });
  });
}

/**
 * GET /v1/sessions/{id}/cdp without an upgrade. The upgrade itself never reaches the app: the
 * runtime adapter relays it (see cdp-proxy.ts). Its token replaces the API key, so this route is
 * registered before the auth middleware.
 */
export function cdpRoute(app: OpenAPIHono<AppEnv>): void {
  handle(app, connectCdp, () => {
    throw new DeckhandError('upgrade_required', 'This is a WebSocket endpoint: connect with a CDP client such as Playwright connectOverCDP');
  });
}
