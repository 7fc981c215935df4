// Session lifecycle: start, list, end, replay, and the CDP relay's plain-GET answer.
import { DeckhandError } from '@deckhand/core';
import { limitsOf } from '../config';
import type { Handlers } from '../route';
import type { RouteDeps } from './deps';

export function sessionHandlers({ sessions, cdp, live, config, cluster }: RouteDeps): Pick<Handlers, 'startSession' | 'listSessions' | 'endSession' | 'replaySession' | 'connectCdp'> {
  return {
    startSession: async (c) => {
      const body = c.req.valid('json');
      const modelApiKey = c.req.valid('header')['x-model-api-key'] || undefined;
      const projectId = c.get('projectId');
      const session = await sessions.start(projectId, body, { modelApiKey, projectMaxSessions: limitsOf(config, projectId).maxSessions });
      const cdpUrl = cdp.urlFor(c.req.url, session, projectId);
      const sessionUrl = live.pageUrl(c.req.url, session, projectId);
      const debugUrl = live.devtoolsUrl(c.req.url, session, projectId);
      return c.json({ success: true as const, data: { sessionId: session.id, available: true, cdpUrl, sessionUrl, debugUrl } }, 200);
    },

    // On a cluster, every node's sessions (from its registry); else this process's.
    listSessions: async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const page = { limit: limit === undefined ? undefined : Number(limit), cursor };
      const projectId = c.get('projectId');
      return c.json({ success: true as const, data: cluster ? await cluster.listSessions(projectId, page) : sessions.list(projectId, page) }, 200);
    },

    endSession: async (c) => {
      await sessions.end(c.get('projectId'), c.req.valid('param').id);
      return c.json({ success: true as const }, 200);
    },

    replaySession: async (c) => {
      const session = sessions.get(c.get('projectId'), c.req.valid('param').id);
      await session.picturesNumbered();
      return c.json({ success: true as const, data: session.replay() }, 200);
    },

    // The upgrade itself never reaches the app: the runtime adapter joins it to the browser (cdp-proxy.ts).
    // Its token replaces the API key, so the route is public.
    connectCdp: () => {
      throw new DeckhandError('upgrade_required', 'This is a WebSocket endpoint: connect with a CDP client such as Playwright connectOverCDP');
    },
  };
}
