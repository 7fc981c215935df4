// Creates, finds and ends sessions. A project sees only its own sessions: another project's id is
// reported as unknown (404), an ended one of its own as gone (410).
import { openBrowser } from '../browser/open-browser.js';
import type { CoreConfig } from '../config.js';
import { DeckhandError } from '../errors.js';
import type { StartRequest } from '../types.js';
import { goneError, Session } from './session.js';
import { settingsFrom } from './session-settings.js';
import { InMemorySessionStore, type SessionStore } from './session-store.js';

export interface StartOptions {
  /** From the x-model-api-key header; kept on the session, never logged. */
  modelApiKey?: string;
}

export class SessionManager {
  private starting = 0;

  constructor(
    private readonly config: CoreConfig,
    private readonly store: SessionStore = new InMemorySessionStore(config.tombstoneLimit),
  ) {}

  async start(projectId: string, req: StartRequest, opts: StartOptions = {}): Promise<Session> {
    if (this.store.size + this.starting >= this.config.maxSessions) {
      throw new DeckhandError('session_limit', `Too many sessions (limit ${this.config.maxSessions}); end one and retry`);
    }
    this.starting++;
    try {
      const browser = await openBrowser(req, projectId, this.config);
      const session = new Session({
        projectId,
        settings: settingsFrom(req, this.config),
        browser,
        config: this.config,
        modelApiKey: opts.modelApiKey || undefined,
        onStop: (stopped, reason) => this.store.bury(stopped, { projectId: stopped.projectId, reason, endedAt: Date.now() }),
      });
      this.store.add(session);
      return session;
    } finally {
      this.starting--;
    }
  }

  get(projectId: string, sessionId: string): Session {
    const session = this.store.find(sessionId);
    if (session && session.projectId === projectId) return session;
    const tombstone = this.store.findTombstone(sessionId);
    if (tombstone && tombstone.projectId === projectId) {
      throw goneError(tombstone.reason);
    }
    throw new DeckhandError('session_not_found', `Session ${sessionId} not found`);
  }

  async end(projectId: string, sessionId: string): Promise<void> {
    await this.get(projectId, sessionId).stop('ended');
  }

  /** Live sessions, across projects. */
  count(): number {
    return this.store.size;
  }

  /** Ends every session (server shutdown). */
  async shutdown(): Promise<void> {
    await Promise.all(this.store.all().map((session) => session.stop('ended')));
  }
}

export function createSessionManager(config: CoreConfig): SessionManager {
  return new SessionManager(config);
}
