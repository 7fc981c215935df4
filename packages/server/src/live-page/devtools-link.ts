// debugUrl: a DevTools front end on the session's active page. Chromium serves no front end here (it
// listens on no port), so the link is a route of this server that checks the session's DevTools token
// and redirects to the hosted front end of the session browser's own revision, pointed at a page-level
// websocket on this server (/v1/sessions/{id}/devtools?ticket=…, see page-channel.ts). That websocket
// URL travels in the front end's address, to its host: so it carries a ticket that opens one
// connection within a minute, never the long-lived token.
import { randomBytes } from 'node:crypto';
import { DeckhandError, isDeckhandError, type CdpChannel, type Session, type SessionManager } from '@deckhand/core';
import { safeDecode } from '../cdp-proxy';
import { reject } from '../serve/adapter';
import { pageChannel } from './page-channel';
import { publicUrl } from '../public-url';
import type { UpgradeDecision } from '../serve/adapter';

const DEVTOOLS_PATH = /^\/v1\/sessions\/([^/]+)\/devtools$/;
/** Chromium's own choice for a browser without bundled front end resources (its /json answers point there). */
const FRONTEND = 'https://chrome-devtools-frontend.appspot.com/serve_rev';
const TICKET_TTL_MS = 60_000;

/** The redirect's body, for whoever reads it: where the front end comes from, and that it needs the internet. */
export function redirectNotice(location: string): string {
  const href = location.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><meta charset="utf-8"><title>DevTools</title><p>Opening <a href="${href}">the Chrome DevTools front end</a> hosted by Google (chrome-devtools-frontend.appspot.com): this browser needs internet access to load it. The session's page traffic stays between this browser and the Deckhand server.</p>`;
}
/** Tickets outstanding at once; a flood of link openings cannot grow the map beyond this. */
const MAX_TICKETS = 1_000;

export interface DevtoolsLinks {
  /** The front end's address for a session, with a fresh one-time ticket for its page connection. */
  frontendUrl(requestUrl: string, session: Session, projectId: string): Promise<string>;
  /** What a websocket upgrade of /v1/sessions/{id}/devtools is joined to; undefined for other paths. */
  route(pathAndQuery: string): UpgradeDecision | undefined;
}

export function createDevtoolsLinks(sessions: SessionManager, options: { publicUrl?: string }): DevtoolsLinks {
  const tickets = new Map<string, { projectId: string; sessionId: string; expires: number }>();

  function issue(projectId: string, sessionId: string): string {
    const now = Date.now();
    for (const [ticket, held] of tickets) if (held.expires <= now || tickets.size >= MAX_TICKETS) tickets.delete(ticket);
    const ticket = randomBytes(24).toString('base64url');
    tickets.set(ticket, { projectId, sessionId, expires: now + TICKET_TTL_MS });
    return ticket;
  }

  function redeem(sessionId: string, ticket: string): string {
    const held = tickets.get(ticket);
    tickets.delete(ticket);
    if (!held || held.sessionId !== sessionId || held.expires <= Date.now()) {
      throw new DeckhandError('unauthorized', 'Missing, used or expired DevTools ticket: open the debugUrl again');
    }
    return held.projectId;
  }

  return {
    async frontendUrl(requestUrl, session, projectId) {
      const revision = await browserRevision(session);
      const socket = publicUrl(requestUrl, options.publicUrl, `/v1/sessions/${encodeURIComponent(session.id)}/devtools`);
      socket.search = `ticket=${issue(projectId, session.id)}`;
      const scheme = socket.protocol === 'https:' ? 'wss' : 'ws';
      const params = new URLSearchParams({ [scheme]: `${socket.host}${socket.pathname}${socket.search}` });
      return `${FRONTEND}/${revision}/inspector.html?${params}`;
    },

    route(pathAndQuery) {
      const url = new URL(pathAndQuery, 'http://deckhand.invalid');
      const match = DEVTOOLS_PATH.exec(url.pathname);
      if (!match) return undefined;
      try {
        const sessionId = safeDecode(match[1]!);
        const projectId = redeem(sessionId, url.searchParams.get('ticket') ?? '');
        const session = sessions.get(projectId, sessionId);
        return {
          projectId,
          open: async () => {
            const targetId = await session.pageTargetId();
            return pageChannel(await session.openCdp(), targetId);
          },
        };
      } catch (error) {
        return reject(isDeckhandError(error) ? error : new DeckhandError('internal_error', 'Internal error while opening the DevTools connection'));
      }
    },
  };
}

/** The browser's source revision (`@<commit>`), which names the front end build that speaks its protocol. */
async function browserRevision(session: Session): Promise<string> {
  const channel = await session.openCdp();
  try {
    const reply = await request(channel, 'Browser.getVersion');
    const revision = reply.result?.revision;
    if (typeof revision !== 'string' || !/^@[0-9a-f]{7,40}$/.test(revision)) {
      throw new DeckhandError('internal_error', 'The session browser did not name its revision');
    }
    return revision;
  } finally {
    channel.close();
  }
}

function request(channel: CdpChannel, method: string): Promise<{ result?: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    channel.onClose(() => reject(new DeckhandError('session_gone', 'The session browser closed')));
    channel.onMessage((text) => {
      const message = JSON.parse(text) as { id?: number; result?: Record<string, unknown> };
      if (message.id === 1) resolve(message);
    });
    channel.send(JSON.stringify({ id: 1, method }));
  });
}
