// The last few sessions that ended, kept whole for their live page (sessionUrl shows a finished
// session's log and last picture). Few, because each holds its history and a picture; a session
// older than that is only a tombstone (410).
import type { Session } from './session.js';

export const FINISHED_SESSIONS_KEPT = 32;

export class FinishedSessions {
  private readonly kept = new Map<string, Session>();

  keep(session: Session): void {
    this.kept.set(session.id, session);
    if (this.kept.size > FINISHED_SESSIONS_KEPT) this.kept.delete(this.kept.keys().next().value!);
  }

  find(projectId: string, sessionId: string): Session | undefined {
    const session = this.kept.get(sessionId);
    return session?.projectId === projectId ? session : undefined;
  }
}
