// The part of the Browserbase session API that the published Stagehand client calls to find the
// browser (GET /v1/sessions/{id}), to probe debug URLs, and to release the session on exit.
import type { Handlers } from '../route';
import type { RouteDeps } from './deps';

export function compatHandlers({ sessions, cdp, live }: RouteDeps): Pick<Handlers, 'getBrowserSession' | 'updateBrowserSession' | 'getBrowserSessionDebug'> {
  return {
    getBrowserSession: (c) => {
      const projectId = c.get('projectId');
      const session = sessions.get(projectId, c.req.valid('param').id);
      const sessionUrl = live.pageUrl(c.req.url, session, projectId);
      const debugUrl = live.devtoolsUrl(c.req.url, session, projectId);
      return c.json({ id: session.id, status: 'RUNNING' as const, connectUrl: cdp.urlFor(c.req.url, session, projectId), projectId, sessionUrl, debugUrl }, 200);
    },

    updateBrowserSession: async (c) => {
      const projectId = c.get('projectId');
      const id = c.req.valid('param').id;
      const session = sessions.get(projectId, id);
      const connectUrl = cdp.urlFor(c.req.url, session, projectId);
      await sessions.end(projectId, id);
      return c.json({ id, status: 'COMPLETED' as const, connectUrl, projectId }, 200);
    },

    getBrowserSessionDebug: (c) => {
      const projectId = c.get('projectId');
      const session = sessions.get(projectId, c.req.valid('param').id);
      // The browser serves no DevTools front end (it listens on no port): the front end is debugUrl's
      // (a link that redirects to one), and the websocket is the relay.
      const wsUrl = cdp.urlFor(c.req.url, session, projectId);
      const debugUrl = live.devtoolsUrl(c.req.url, session, projectId);
      return c.json({ debuggerUrl: debugUrl, debuggerFullscreenUrl: debugUrl, wsUrl, pages: [] }, 200);
    },
  };
}
