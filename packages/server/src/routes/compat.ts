// The part of the Browserbase session API that the published Stagehand client calls to find the
// browser (GET /v1/sessions/{id}), to probe debug URLs, and to release the session on exit.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { getBrowserSession, getBrowserSessionDebug, updateBrowserSession } from '../gen/routes.gen';
import type { AppEnv } from '../env';
import { handle } from '../route';
import type { RouteDeps } from './deps';

export function compatRoutes(app: OpenAPIHono<AppEnv>, { sessions, cdp }: RouteDeps): void {
  handle(app, getBrowserSession, (c) => {
    const projectId = c.get('projectId');
    const session = sessions.get(projectId, c.req.valid('param').id);
    return c.json({ id: session.id, status: 'RUNNING', connectUrl: cdp.urlFor(c.req.url, session, projectId), projectId });
  });

  handle(app, updateBrowserSession, async (c) => {
    const projectId = c.get('projectId');
    const id = c.req.valid('param').id;
    const session = sessions.get(projectId, id);
    const connectUrl = cdp.urlFor(c.req.url, session, projectId);
    await sessions.end(projectId, id);
    return c.json({ id, status: 'COMPLETED', connectUrl, projectId });
  });

  handle(app, getBrowserSessionDebug, (c) => {
    const projectId = c.get('projectId');
    const session = sessions.get(projectId, c.req.valid('param').id);
    // The browser serves no DevTools front end (it listens on no port): the relay is the way in.
    const wsUrl = cdp.urlFor(c.req.url, session, projectId);
    return c.json({ debuggerUrl: wsUrl, debuggerFullscreenUrl: wsUrl, wsUrl, pages: [] });
  });
}
