// The sessions of the cluster in Redis: session → owner node (and its URL), project, state, times. This
// node writes its own sessions (registered at start, marked ended when they stop) and reads any.
import { DeckhandError } from '@deckhand/core';
import { keys, type RegisteredState } from './keys';
import { STOPPED_SESSION_TTL_MS } from './node-registry';
import type { RedisClient, RedisLink } from './redis';

type Multi = ReturnType<RedisClient['multi']>;

export interface RegisteredSession {
  id: string;
  node: string;
  url: string;
  project: string;
  state: RegisteredState;
  startedAt: number;
  endedAt?: number;
  /** Why it stopped (the end reason, or what happened to its node). */
  reason?: string;
}

export class SessionRegistry {
  /** Sessions this node owns and holds live, so they can be written again into a Redis that lost them. */
  readonly #owned = new Map<string, { project: string; startedAt: number }>();
  /** Ends being written now (leave waits for them). */
  readonly #writing = new Set<Promise<unknown>>();
  /** Ends that could not be written (Redis down), written on reconnection. */
  readonly #unwrittenEnds = new Map<string, { reason: string; endedAt: number }>();

  constructor(
    private readonly redis: RedisLink,
    /** `maxSessionMs`: the longest a session lives (a project's list keeps a session this long, and 24 h after it stops). */
    private readonly self: { id: string; url: () => string; maxSessionMs: number },
  ) {}

  /** How many sessions this node holds live. */
  get ownedCount(): number {
    return this.#owned.size;
  }

  async register(sessionId: string, project: string): Promise<void> {
    const startedAt = Date.now();
    this.#owned.set(sessionId, { project, startedAt });
    try {
      await this.#write(sessionId, project, startedAt);
    } catch (error) {
      this.#owned.delete(sessionId);
      throw error;
    }
  }

  /** A session of this node stopped (ended, expired, crashed, drained): its registry entry says so, and later expires. */
  async stopped(sessionId: string, reason: string): Promise<void> {
    if (!this.#owned.delete(sessionId)) return;
    const endedAt = Date.now();
    const writing = this.#writeEnd(sessionId, reason, endedAt).catch(() => this.#unwrittenEnds.set(sessionId, { reason, endedAt }));
    this.#writing.add(writing);
    await writing.finally(() => this.#writing.delete(writing));
  }

  /** Resolves once every end being written has been written (or set aside for later). */
  async settled(): Promise<void> {
    await Promise.all(this.#writing);
  }

  /**
   * After an outage, a Redis that restarted empty, or this node swept as dead while it lived: its live
   * sessions (back to running, whatever the sweep wrote) and its ends, written again in one round trip.
   */
  async rewrite(): Promise<void> {
    const ends = [...this.#unwrittenEnds];
    if (this.#owned.size === 0 && ends.length === 0) return;
    await this.redis.run((client) => {
      const multi = client.multi();
      for (const [sessionId, { project, startedAt }] of this.#owned) this.#addWrite(multi, sessionId, project, startedAt);
      for (const [sessionId, { reason, endedAt }] of ends) this.#addEnd(multi, sessionId, reason, endedAt);
      return multi.exec();
    });
    for (const [sessionId] of ends) this.#unwrittenEnds.delete(sessionId);
  }

  async lookup(sessionId: string): Promise<RegisteredSession | undefined> {
    const hash = await this.redis.run((client) => client.hGetAll(keys.session(sessionId)));
    if (!hash.node || !hash.project) return undefined;
    return {
      id: sessionId,
      node: hash.node,
      url: hash.url ?? '',
      project: hash.project,
      state: (hash.state as RegisteredState) ?? 'running',
      startedAt: Number(hash.startedAt),
      ...(hash.endedAt ? { endedAt: Number(hash.endedAt) } : {}),
      ...(hash.reason ? { reason: hash.reason } : {}),
    };
  }

  #write(sessionId: string, project: string, startedAt: number): Promise<unknown> {
    return this.redis.run((client) => {
      const multi = client.multi();
      this.#addWrite(multi, sessionId, project, startedAt);
      return multi.exec();
    });
  }

  #writeEnd(sessionId: string, reason: string, endedAt: number): Promise<unknown> {
    return this.redis.run((client) => {
      const multi = client.multi();
      this.#addEnd(multi, sessionId, reason, endedAt);
      return multi.exec();
    });
  }

  /** Adds to `multi` (its commands are queued on it) the writes of a live session. */
  #addWrite(multi: Multi, sessionId: string, project: string, startedAt: number): void {
    // The project's list outlives none of its sessions' hashes; what it holds beyond them is dropped as it is read.
    const listKept = this.self.maxSessionMs + STOPPED_SESSION_TTL_MS;
    // A session swept as lost while this node lived reads running again, without the sweep's end.
    multi
      .hSet(keys.session(sessionId), { node: this.self.id, url: this.self.url(), project, state: 'running', startedAt, updatedAt: Date.now() })
      .hDel(keys.session(sessionId), ['reason', 'endedAt'])
      .persist(keys.session(sessionId))
      .sAdd(keys.nodeSessions(this.self.id), sessionId)
      .zAdd(keys.projectSessions(project), { score: startedAt, value: sessionId })
      .zRemRangeByScore(keys.projectSessions(project), '-inf', Date.now() - listKept)
      .pExpire(keys.projectSessions(project), listKept);
  }

  #addEnd(multi: Multi, sessionId: string, reason: string, endedAt: number): void {
    multi
      .hSet(keys.session(sessionId), { state: 'ended', reason, endedAt, updatedAt: endedAt })
      .pExpire(keys.session(sessionId), STOPPED_SESSION_TTL_MS)
      .sRem(keys.nodeSessions(this.self.id), sessionId);
  }
}

/** The 410 for a session whose node is gone: what happened, and that its browser went with it. */
export function lostError(sessionId: string, why: string): DeckhandError {
  return new DeckhandError('session_lost', `Session ${sessionId} was lost: ${why}. Its browser went with it; start a new session`);
}
