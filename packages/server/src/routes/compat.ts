// The part of the Browserbase session API that the published Stagehand client calls to find the
// browser (GET /v1/sessions/{id}), to probe debug URLs, and to release the session on exit.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { getBrowserSession, getBrowserSessionDebug, updateBrowserSession } from '../gen/routes.gen';
import type { AppEnv } from '../env';
import { handle } from '../route';
import type { RouteDeps } from './deps';

export function compatRoutes(app: OpenAPIHono<AppEnv>, { sessions }: RouteDeps): void {
  handle(app, getBrowserSession, (c) => {
    const projectId = c.get('projectId');
    const session = sessions.get(projectId, c.req.valid('param').id);
    return c.json({ id: session.id, status: 'RUNNING', connectUrl: session.cdpUrl, projectId });
  });

  handle(app, updateBrowserSession, async (c) => {
    const projectId = c.get('projectId');
    const id = c.req.valid('param').id;
    const session = sessions.get(projectId, id);
    await sessions.end(projectId, id);
    return c.json({ id, status: 'COMPLETED', connectUrl: session.cdpUrl, projectId });
  });

  handle(app, getBrowserSessionDebug, (c) => {
    const session = sessions.get(c.get('projectId'), c.req.valid('param').id);
    const inspector = session.cdpUrl.replace(/^ws:\/\/([^/]+)\/(.*)$/, 'http://$1/devtools/inspector.html?ws=$1/$2');
    return c.json({ debuggerUrl: inspector, debuggerFullscreenUrl: inspector, wsUrl: session.cdpUrl, pages: [] });
  });
}
