// The live session page (sessionUrl) and the two things it polls: a picture of the active page and
// the session's state; and the DevTools link (debugUrl). Public routes: the token in the query stands
// in for the API key. A session that ended recently keeps its page: its final log and last picture.
import { randomBytes } from 'node:crypto';
import { DeckhandError, isDeckhandError, type FinalLook, type ReplayAction, type Session } from '@deckhand/core';
import { redirectNotice } from '../live-page/devtools-link';
import { InFlight } from '../live-page/in-flight';
import { renderLivePage } from '../live-page/live-page';
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

/** A session as its live page shows it: live here, or ended (here, or on any node of a cluster). */
interface Watched {
  session?: Session;
  ended?: { state: 'ended' | 'crashed' | 'expired'; actions: ReplayAction[]; look: Promise<FinalLook> };
}

export function liveHandlers({ sessions, live, devtools, config, ended }: RouteDeps): Pick<Handlers, 'getLivePage' | 'getLiveState' | 'getLiveFrame' | 'getDevtools'> {
  const pictures = new InFlight();
  const picturesOf = (session: Session) => [
    { key: `session\0${session.id}`, limit: config.live.framesPerSession, what: 'This session' },
    { key: `project\0${session.projectId}`, limit: config.live.framesPerProject, what: 'This project' },
  ];
  /** The session the request's view token was made for, live or recently ended (401 otherwise; 404 or 410 as for any session). */
  const watched = async (id: string, token: string): Promise<Watched> => {
    const projectId = live.projectOf(id, token);
    try {
      return { session: sessions.get(projectId, id) };
    } catch (error) {
      const finished = isDeckhandError(error) && error.code === 'session_gone' ? sessions.finished(projectId, id) : undefined;
      if (finished) return { ended: { state: finished.state as 'ended', actions: actionsOf(finished), look: finished.finalLook()! } };
      // A cluster keeps the record of a session that ended on any node.
      const kept = isDeckhandError(error) ? await ended?.find(projectId, id) : undefined;
      if (kept) return { ended: { state: kept.state, actions: kept.actions, look: Promise.resolve(kept.look) } };
      throw error;
    }
  };

  return {
    getLivePage: async (c) => {
      const { id } = c.req.valid('param');
      await watched(id, c.req.valid('query').token);
      const nonce = randomBytes(16).toString('base64');
      return c.html(renderLivePage(nonce), 200, pageHeaders(nonce));
    },

    getLiveState: async (c) => {
      const { id } = c.req.valid('param');
      const { session, ended: done } = await watched(id, c.req.valid('query').token);
      if (done) {
        const { url, title } = await done.look;
        return c.json({ url, title, pages: 0, actions: done.actions, ended: done.state }, 200, { 'cache-control': 'no-store' });
      }
      const view = await session!.look();
      return c.json({ ...view, actions: actionsOf(session!) }, 200, { 'cache-control': 'no-store' });
    },

    getLiveFrame: async (c) => {
      const { id } = c.req.valid('param');
      const { session, ended: done } = await watched(id, c.req.valid('query').token);
      const jpeg = done ? (await done.look).picture : await pictures.run(picturesOf(session!), () => session!.picture());
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

function actionsOf(session: Session): ReplayAction[] {
  return session.replay().pages.flatMap((page) => page.actions);
}
