// The tokens of the two links a person opens in a browser: the live page (sessionUrl, view only) and
// the DevTools link (debugUrl, full control of the session's page). Each is an HMAC of purpose,
// project and session under a secret made at server start (no storage; it dies with the server; on a
// cluster one drawn from the cluster secret, so any node accepts another's links), and
// that secret is not the CDP relay's: a view token shows the session and cannot drive it, and neither
// token opens the other's door.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeckhandError, type Session } from '@deckhand/core';
import { publicUrl } from '../public-url';

export type LinkPurpose = 'live' | 'devtools';

const PATHS: Record<LinkPurpose, string> = { live: 'live', devtools: 'devtools' };
const REFUSALS: Record<LinkPurpose, string> = {
  live: 'Missing or invalid live page token: use the sessionUrl the server handed out',
  devtools: 'Missing or invalid DevTools token: use the debugUrl the server handed out',
};

export interface LiveTokens {
  /** The live page of a session, with its token, as the request's client reaches this server. */
  pageUrl(requestUrl: string, session: { id: string }, projectId: string): string;
  /** The DevTools link of a session (it redirects to a front end on a one-time page connection). */
  devtoolsUrl(requestUrl: string, session: Session, projectId: string): string;
  /** The project a token was made for, if it was made for this session and purpose; else 401. */
  projectOf(sessionId: string, token: string, purpose?: LinkPurpose): string;
}

export function createLiveTokens(options: { publicUrl?: string }, secret: Buffer = randomBytes(32)): LiveTokens {
  const sign = (purpose: LinkPurpose, projectId: string, sessionId: string) => createHmac('sha256', secret).update(`${purpose}\n${projectId}\n${sessionId}`).digest();
  const link = (purpose: LinkPurpose) => (requestUrl: string, session: { id: string }, projectId: string) => {
    const url = publicUrl(requestUrl, options.publicUrl, `/v1/sessions/${encodeURIComponent(session.id)}/${PATHS[purpose]}`);
    url.search = `token=${Buffer.from(projectId).toString('base64url')}.${sign(purpose, projectId, session.id).toString('base64url')}`;
    return url.href;
  };

  return {
    pageUrl: link('live'),
    devtoolsUrl: link('devtools'),

    projectOf(sessionId, token, purpose = 'live') {
      const [project, signature] = token.split('.');
      const projectId = Buffer.from(project ?? '', 'base64url').toString();
      const presented = Buffer.from(signature ?? '', 'base64url');
      const expected = sign(purpose, projectId, sessionId);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
        throw new DeckhandError('unauthorized', REFUSALS[purpose]);
      }
      return projectId;
    },
  };
}
