// The live session page (sessionUrl) and the two things it polls: a picture of the active page and
// the session's state. Public routes: the view token in the query stands in for the API key.
import { randomBytes } from 'node:crypto';
import { renderLivePage } from '../live-page';
import type { Handlers } from '../route';
import type { RouteDeps } from './deps';

/** The page runs only its own nonce'd script, talks only to this server, and leaks its token to no one. */
function pageHeaders(nonce: string): Record<string, string> {
  return {
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

export function liveHandlers({ sessions, live }: RouteDeps): Pick<Handlers, 'getLivePage' | 'getLiveState' | 'getLiveFrame'> {
  /** The session the request's token was made for (401 otherwise; 404 or 410 as for any session). */
  const sessionOf = (id: string, token: string) => sessions.get(live.projectOf(id, token), id);

  return {
    getLivePage: (c) => {
      const { id } = c.req.valid('param');
      sessionOf(id, c.req.valid('query').token);
      const nonce = randomBytes(16).toString('base64');
      return c.html(renderLivePage(nonce), 200, pageHeaders(nonce));
    },

    getLiveState: async (c) => {
      const { id } = c.req.valid('param');
      const session = sessionOf(id, c.req.valid('query').token);
      const view = await session.look();
      const actions = session.replay().pages.flatMap((page) => page.actions);
      return c.json({ ...view, actions }, 200, { 'cache-control': 'no-store' });
    },

    getLiveFrame: async (c) => {
      const { id } = c.req.valid('param');
      const session = sessionOf(id, c.req.valid('query').token);
      const jpeg = await session.picture();
      return c.body(new Uint8Array(jpeg), 200, { 'content-type': 'image/jpeg', 'cache-control': 'no-store' });
    },
  };
}
