// What the sessions of one service share beyond this process: in memory by default; on a cluster the
// server passes Redis-backed parts (server/src/cluster/shared-state.ts).
import { InMemoryProjectSlots, type ProjectSlots } from './project-slots.js';
import type { Session } from './session.js';

export interface SharedSessionState {
  /** Each project's session slots (DECKHAND_PROJECT_LIMITS' sessions). */
  slots: ProjectSlots;
  /** Told of each started session before `start` answers (whatever started it: the API, MCP); a rejection undoes the start. */
  onStarted?(session: Session): Promise<void>;
  /** Told of each stopped session once its last look is taken: a cluster keeps it for its live page on every node. */
  onFinished?(session: Session): void;
}

export function inMemorySharedState(): SharedSessionState {
  return { slots: new InMemoryProjectSlots() };
}
