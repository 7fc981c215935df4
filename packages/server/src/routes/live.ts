// The live session page (sessionUrl) and the two things it polls: a picture of the active page and
// the session's state; and the DevTools link (debugUrl). Public routes: the token in the query stands
// in for the API key. A session that ended recently keeps its page: its final log and last picture.
import { randomBytes } from 'node:crypto';
import { DeckhandError, type Session } from '@deckhand/core';
import { redirectNotice } from '../devtools-link';
import { InFlight } from '../in-flight';
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

export function liveHandlers({ sessions, live, devtools, config }: RouteDeps): Pick<Handlers, 'getLivePage' | 'getLiveState' | 'getLiveFrame' | 'getDevtools'> {
  const pictures = new InFlight();
  const picturesOf = (session: Session) => [
    { key: `session\0${session.id}`, limit: config.live.framesPerSession, what: 'This session' },
    { key: `project\0${session.projectId}`, limit: config.live.framesPerProject, what: 'This project' },
  ];
  /** The session the request's view token was made for, live or recently ended (401 otherwise; 404 or 410 as for any session). */
  const sessionOf = (id: string, token: string): Session => sessions.recent(live.projectOf(id, token), id);

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
      const actions = () => session.replay().pages.flatMap((page) => page.actions);
      const last = session.finalLook();
      if (last) {
        const { url, title } = await last;
        return c.json({ url, title, pages: 0, actions: actions(), ended: session.state as 'ended' | 'crashed' | 'expired' }, 200, { 'cache-control': 'no-store' });
      }
      const view = await session.look();
      return c.json({ ...view, actions: actions() }, 200, { 'cache-control': 'no-store' });
    },

    getLiveFrame: async (c) => {
      const { id } = c.req.valid('param');
      const session = sessionOf(id, c.req.valid('query').token);
      const last = session.finalLook();
      const jpeg = last ? (await last).picture : await pictures.run(picturesOf(session), () => session.picture());
      if (!jpeg) throw new DeckhandError('session_gone', 'Session has ended; nobody was watching it, so it has no last picture');
      return c.body(new Uint8Array(jpeg), 200, { 'content-type': 'image/jpeg', 'cache-control': 'no-store' });
    },

    getDevtools: async (c) => {
      const { id } = c.req.valid('param');
      const projectId = live.projectOf(id, c.req.valid('query').token, 'devtools');
      const session = sessions.get(projectId, id);
      const location = await devtools.frontendUrl(c.req.url, session, projectId);
      return c.html(redirectNotice(location), 302, { location });
    },
  };
}
