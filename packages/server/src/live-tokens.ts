// The live session page's view token: an HMAC of project and session under a secret made at server
// start (no storage; it dies with the server), under its own secret so that it never opens the CDP
// relay: a view token shows the session and cannot drive it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeckhandError, type Session } from '@deckhand/core';
import { publicUrl } from './public-url';

export interface LiveTokens {
  /** The live page of a session, with its token, as the request's client reaches this server. */
  pageUrl(requestUrl: string, session: Session, projectId: string): string;
  /** The project a token was made for, if it was made for this session; else 401. */
  projectOf(sessionId: string, token: string): string;
}

export function createLiveTokens(options: { publicUrl?: string }): LiveTokens {
  const secret = randomBytes(32);
  const sign = (projectId: string, sessionId: string) => createHmac('sha256', secret).update(`live\n${projectId}\n${sessionId}`).digest();

  return {
    pageUrl(requestUrl, session, projectId) {
      const url = publicUrl(requestUrl, options.publicUrl, `/v1/sessions/${encodeURIComponent(session.id)}/live`);
      url.search = `token=${Buffer.from(projectId).toString('base64url')}.${sign(projectId, session.id).toString('base64url')}`;
      return url.href;
    },

    projectOf(sessionId, token) {
      const [project, signature] = token.split('.');
      const projectId = Buffer.from(project ?? '', 'base64url').toString();
      const presented = Buffer.from(signature ?? '', 'base64url');
      const expected = sign(projectId, sessionId);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
        throw new DeckhandError('unauthorized', 'Missing or invalid live page token: use the sessionUrl the server handed out');
      }
      return projectId;
    },
  };
}
