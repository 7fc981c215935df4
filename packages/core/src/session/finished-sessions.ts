// The last few sessions that ended, kept whole for their live page (sessionUrl shows a finished
// session's log, last picture and replay pictures; a session dropped from here has its pictures
// deleted). Few, because each holds its history and a picture; an older one is only a tombstone (410).
import type { Session } from './session.js';

export const FINISHED_SESSIONS_KEPT = 32;

export class FinishedSessions {
  private readonly kept = new Map<string, Session>();

  keep(session: Session): void {
    this.kept.set(session.id, session);
    if (this.kept.size <= FINISHED_SESSIONS_KEPT) return;
    const oldest = this.kept.values().next().value!;
    this.kept.delete(oldest.id);
    void oldest.forget();
  }

  find(projectId: string, sessionId: string): Session | undefined {
    const session = this.kept.get(sessionId);
    return session?.projectId === projectId ? session : undefined;
  }
}
