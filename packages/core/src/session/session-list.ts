// One page of a project's sessions, newest first. The cursor is where the last page ended (its last
// session's start time and id), so sessions that start or end between pages neither repeat nor vanish.
import { DeckhandError } from '../errors.js';
import type { SessionSummary } from '../types.js';

export interface ListedSession {
  sessionId: string;
  state: SessionSummary['state'];
  startedAt: number;
  endedAt?: number;
}

export interface SessionPage {
  sessions: SessionSummary[];
  nextCursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;

/** Newest first; sessions started in the same millisecond by id. */
function before(a: { startedAt: number; sessionId: string }, b: { startedAt: number; sessionId: string }): boolean {
  return a.startedAt !== b.startedAt ? a.startedAt > b.startedAt : a.sessionId < b.sessionId;
}

function cursorOf(session: ListedSession): string {
  return Buffer.from(JSON.stringify([session.startedAt, session.sessionId])).toString('base64url');
}

/** Where a page's cursor says the last page ended; 400 for a cursor this server did not give. */
export function cursorPosition(cursor: string): { startedAt: number; sessionId: string } {
  try {
    const [startedAt, sessionId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof startedAt === 'number' && typeof sessionId === 'string') return { startedAt, sessionId };
  } catch {
    // Answered below: a cursor is only ever one this server made.
  }
  throw new DeckhandError('validation_error', 'Invalid request: query.cursor: not a cursor this server gave (use nextCursor of the previous page)', [
    { path: 'query.cursor', message: 'not a cursor this server gave' },
  ]);
}

export function pageOfSessions(all: ListedSession[], { limit = DEFAULT_PAGE_SIZE, cursor }: { limit?: number; cursor?: string }): SessionPage {
  const after = cursor === undefined ? undefined : cursorPosition(cursor);
  const ordered = all.sort((a, b) => (before(a, b) ? -1 : 1)).filter((session) => !after || before(after, session));
  const page = ordered.slice(0, limit);
  const last = page.at(-1);
  return {
    sessions: page.map(({ sessionId, state, startedAt, endedAt }) => ({
      sessionId,
      state,
      createdAt: new Date(startedAt).toISOString(),
      ...(endedAt !== undefined && { endedAt: new Date(endedAt).toISOString() }),
    })),
    ...(ordered.length > limit && last && { nextCursor: cursorOf(last) }),
  };
}
