// Ended sessions' records for their live page, in Redis so sessionUrl works through any node after the
// session's node has let it go: project, how it ended, last address and title, the log, and the last
// picture when someone watched. Each expires after ENDED_TTL_MS and is bounded at MAX_RECORD_BYTES
// (the picture goes first, then the oldest actions). The API's replay stays 410 after end (the contract).
import type { FinalLook, ReplayAction, Session } from '@deckhand/core';
import { keys } from './keys';
import type { RedisLink } from './redis';

const ENDED_TTL_MS = 3600_000;
const MAX_RECORD_BYTES = 1024 * 1024;

/** What the live page shows of a session that ended on some node. */
export interface EndedRecord {
  id: string;
  projectId: string;
  state: 'ended' | 'crashed' | 'expired';
  actions: ReplayAction[];
  look: FinalLook;
}

interface Stored {
  projectId: string;
  state: EndedRecord['state'];
  url: string;
  title: string;
  actions: ReplayAction[];
  /** base64 JPEG. */
  picture?: string;
}

export interface EndedSessions {
  /** Keeps a stopped session's record (its last look taken); a failure is only a record missing. */
  keep(session: Session): Promise<void>;
  /** The record of an ended session of this project, if one is kept. */
  find(projectId: string, sessionId: string): Promise<EndedRecord | undefined>;
}

export function redisEndedSessions(redis: RedisLink): EndedSessions {
  return {
    async keep(session) {
      const look = await session.finalLook();
      if (!look) return;
      const stored: Stored = {
        projectId: session.projectId,
        state: session.state as Stored['state'],
        url: look.url,
        title: look.title,
        actions: session.replay().pages.flatMap((page) => page.actions),
        ...(look.picture ? { picture: look.picture.toString('base64') } : {}),
      };
      const text = bounded(stored);
      await redis.run((client) => client.set(keys.endedSession(session.id), text, { expiration: { type: 'PX', value: ENDED_TTL_MS } }));
    },

    async find(projectId, sessionId) {
      const text = await redis.run((client) => client.get(keys.endedSession(sessionId))).catch(() => null);
      if (!text) return undefined;
      const stored = JSON.parse(text) as Stored;
      // Another project's session is unknown here, as everywhere.
      if (stored.projectId !== projectId) return undefined;
      const look: FinalLook = { url: stored.url, title: stored.title, ...(stored.picture ? { picture: Buffer.from(stored.picture, 'base64') } : {}) };
      return { id: sessionId, projectId, state: stored.state, actions: stored.actions, look };
    },
  };
}

/** The record as JSON within MAX_RECORD_BYTES: without the picture, then with the newer half of the actions, until it fits. */
function bounded(stored: Stored): string {
  let text = JSON.stringify(stored);
  if (Buffer.byteLength(text) <= MAX_RECORD_BYTES) return text;
  const { picture: _picture, ...rest } = stored;
  let actions = rest.actions;
  text = JSON.stringify(rest);
  while (Buffer.byteLength(text) > MAX_RECORD_BYTES && actions.length > 0) {
    actions = actions.slice(Math.ceil(actions.length / 2));
    text = JSON.stringify({ ...rest, actions });
  }
  return text;
}
