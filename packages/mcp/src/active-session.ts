// The one browser session an MCP session drives. `start` sets it (a new one, or an existing one of the
// same project), `end` closes it, and a page tool called before the first `start` starts one, so a
// model that goes straight to `navigate` is not turned away. After `end`, a page tool is told to call
// `start` (a fresh blank browser would answer "nothing matches" to a model that meant the old page),
// unless the client asked for autoStart. When the MCP session closes, its browser session ends with
// it unless keepAlive asked otherwise. On a cluster, `start {sessionId}` attaches to a session another
// node holds, and the tools run there.
import { DeckhandError, isDeckhandError, type Session, type SessionManager } from '@deckhand/core';
import { drivenHere, type DrivenSession, type RemoteSessions } from './driven-session.js';
import { startRequestOf, type McpSessionOptions } from './session-options.js';

export class ActiveSession {
  #session?: DrivenSession;
  #starting?: Promise<Session>;
  /** `end` closed the session and no `start` came since. */
  #ended = false;

  constructor(
    private readonly sessions: SessionManager,
    private readonly projectId: string,
    readonly options: McpSessionOptions,
    /** Sessions other nodes hold (a cluster); absent: only this process's. */
    private readonly remote?: RemoteSessions,
    /** The project's live-session limit (the key's sessions=), so MCP starts take the same slots as HTTP starts. */
    private readonly projectMaxSessions?: number,
  ) {}

  get id(): string | undefined {
    return this.#live()?.id;
  }

  /** Starting a browser or running an operation: an idle MCP session is not closed under it. */
  get busy(): boolean {
    return this.#starting !== undefined || this.#live()?.busy === true;
  }

  /** The active session, started first when there is none (or the one there was has ended on its own). */
  async current(): Promise<DrivenSession> {
    const live = this.#live();
    if (live) return live;
    if (this.#ended && !this.options.autoStart) {
      throw new DeckhandError('session_gone', 'The browser session was closed by end');
    }
    return this.start();
  }

  /**
   * Starts a new browser session, or attaches to `sessionId` of this project, and makes it the active
   * one. The one it replaces ends, as it would when the MCP session closes (unless keepAlive): one
   * active browser session per MCP session, none left behind unreachable.
   */
  async start(sessionId?: string): Promise<DrivenSession> {
    const previous = this.#live();
    this.#ended = false;
    if (sessionId) {
      this.#session = previous?.id === sessionId ? previous : await this.#attach(sessionId);
    } else {
      // Two calls racing to start (an eager client) share one browser instead of leaking one.
      this.#starting ??= this.sessions
        .start(this.projectId, startRequestOf(this.options), { modelApiKey: this.options.modelApiKey, projectMaxSessions: this.projectMaxSessions })
        .finally(() => (this.#starting = undefined));
      this.#session = drivenHere(await this.#starting);
    }
    if (previous && previous !== this.#session && !this.options.keepAlive) await previous.stop();
    return this.#session;
  }

  /** Closes the active browser session; answers the id it had, if any. */
  async end(): Promise<string | undefined> {
    const session = this.#live();
    this.#session = undefined;
    this.#ended = true;
    if (!session) return undefined;
    await session.stop();
    return session.id;
  }

  /** The MCP session is gone: its browser session goes too, unless keepAlive keeps it for a later `start {sessionId}`. */
  async release(): Promise<void> {
    if (this.options.keepAlive) {
      this.#session = undefined;
      return;
    }
    await this.end();
  }

  #live(): DrivenSession | undefined {
    return this.#session?.live ? this.#session : undefined;
  }

  /** This project's session here, else where another node holds it; this process's 404 when none does. */
  async #attach(sessionId: string): Promise<DrivenSession> {
    try {
      return drivenHere(this.sessions.get(this.projectId, sessionId));
    } catch (error) {
      const elsewhere = this.remote && isDeckhandError(error) && error.code === 'session_not_found';
      if (!elsewhere) throw error;
      const there = await this.remote.attach(this.projectId, sessionId);
      if (!there) throw error;
      return there;
    }
  }
}
