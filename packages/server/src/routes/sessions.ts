// Session lifecycle: start, end, replay.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { endSession, replaySession, startSession } from '../gen/routes.gen';
import type { AppEnv } from '../env';
import { handle } from '../route';
import type { RouteDeps } from './deps';

export function sessionRoutes(app: OpenAPIHono<AppEnv>, { sessions }: RouteDeps): void {
  handle(app, startSession, async (c) => {
    const body = c.req.valid('json');
    const modelApiKey = c.req.valid('header')['x-model-api-key'] || undefined;
    const session = await sessions.start(c.get('projectId'), body, { modelApiKey });
    return c.json({ success: true, data: { sessionId: session.id, available: true, cdpUrl: session.cdpUrl } });
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
