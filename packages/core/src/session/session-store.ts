// Where live sessions are kept. An interface so a shared store can replace the in-memory default.
import type { Session } from './session.js';
import { Tombstones, type Tombstone } from './tombstones.js';

export interface SessionStore {
  add(session: Session): void;
  find(sessionId: string): Session | undefined;
  /** Moves a session from the live set to the tombstones. */
  bury(session: Session, tombstone: Tombstone): void;
  findTombstone(sessionId: string): Tombstone | undefined;
  /** The project's ended sessions the store still remembers, by id. */
  tombstonesOf(projectId: string): Array<[string, Tombstone]>;
  all(): Session[];
  /** Live sessions. */
  readonly size: number;
}

export class InMemorySessionStore implements SessionStore {
  private readonly live = new Map<string, Session>();
  private readonly tombstones: Tombstones;

  constructor(tombstoneLimit: number) {
    this.tombstones = new Tombstones(tombstoneLimit);
  }

  add(session: Session): void {
    this.live.set(session.id, session);
  }

  find(sessionId: string): Session | undefined {
    return this.live.get(sessionId);
  }

  bury(session: Session, tombstone: Tombstone): void {
    this.live.delete(session.id);
    this.tombstones.bury(session.id, tombstone);
  }

  findTombstone(sessionId: string): Tombstone | undefined {
    return this.tombstones.find(sessionId);
  }

  tombstonesOf(projectId: string): Array<[string, Tombstone]> {
    return this.tombstones.of(projectId);
  }

  all(): Session[] {
    return [...this.live.values()];
  }

  get size(): number {
    return this.live.size;
  }
}
