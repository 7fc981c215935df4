// The CDP relay: the only way to a session's browser from outside. Browsers listen on no port (DevTools
// runs over a pipe); clients get a websocket URL on the server (/v1/sessions/{id}/cdp?token=…), and an
// upgrade there is joined by the runtime adapter (serve/node.ts, serve/bun.ts) to a DevTools channel of
// the session's browser. The token stands in for the API key, which websocket clients rarely send: it
// is an HMAC of the project and session under a secret made at server start, so it needs no storage
// and dies with the server.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeckhandError, isDeckhandError, type Session, type SessionManager } from '@deckhand/core';
import { publicUrl } from './public-url';
import { reject, type UpgradeDecision } from './serve/adapter';

const CDP_PATH = /^\/v1\/sessions\/([^/]+)\/cdp$/;

export interface CdpProxyOptions {
  /** Base URL clients reach the server at (behind a reverse proxy or TLS); else the request's own. */
  publicUrl?: string;
}

export interface CdpProxy {
  /** The CDP URL to hand the client of a request: the server's relay for that session. */
  urlFor(requestUrl: string, session: Session, projectId: string): string;
  /** Where a WebSocket upgrade request goes: a DevTools channel of the session's browser, or an error response. */
  route(pathAndQuery: string): UpgradeDecision;
}

export function createCdpProxy(sessions: SessionManager, options: CdpProxyOptions): CdpProxy {
  const secret = randomBytes(32);
  const sign = (projectId: string, sessionId: string) => createHmac('sha256', secret).update(`${projectId}\n${sessionId}`).digest();

  return {
    urlFor(requestUrl, session, projectId) {
      const url = publicUrl(requestUrl, options.publicUrl, `/v1/sessions/${encodeURIComponent(session.id)}/cdp`);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      url.search = `token=${Buffer.from(projectId).toString('base64url')}.${sign(projectId, session.id).toString('base64url')}`;
      return url.href;
    },

    route(pathAndQuery) {
      try {
        return decide(pathAndQuery);
      } catch (error) {
        return reject(isDeckhandError(error) ? error : new DeckhandError('internal_error', 'Internal error while opening the CDP relay'));
      }
    },
  };

  function decide(pathAndQuery: string): UpgradeDecision {
    const url = new URL(pathAndQuery, 'http://deckhand.invalid');
    const match = CDP_PATH.exec(url.pathname);
    if (!match) return reject(new DeckhandError('route_not_found', `No WebSocket endpoint at ${url.pathname}`));
    const sessionId = safeDecode(match[1]!);
    const [project, signature] = (url.searchParams.get('token') ?? '').split('.');
    const projectId = Buffer.from(project ?? '', 'base64url').toString();
    const presented = Buffer.from(signature ?? '', 'base64url');
    const expected = sign(projectId, sessionId);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return reject(new DeckhandError('unauthorized', 'Missing or invalid CDP token: use the URL the server handed out'));
    }
    const session = sessions.get(projectId, sessionId);
    return { open: () => session.openCdp(), projectId };
  }
}

/** A malformed escape is left as it is (and then matches no session) rather than thrown. */
export function safeDecode(piece: string): string {
  try {
    return decodeURIComponent(piece);
  } catch {
    return piece;
  }
}
