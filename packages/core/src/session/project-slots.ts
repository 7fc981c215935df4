// A project's session slots: a start takes one (or is refused with session_limit) and the session gives
// it back when it stops. In memory by default; a cluster keeps them in Redis (server/src/cluster), so
// nodes together never exceed a project's limit.
import { KeyedCounts } from '../keyed-counts.js';

/** A slot held for one session; `release` is idempotent. */
export interface ProjectSlot {
  /** Frees the slot; settles once every node would see it free (never rejects). */
  release(): Promise<void>;
}

export interface ProjectSlots {
  /** One of the project's `limit` slots, or undefined when all are held. Throws when the count cannot be read (a cluster's Redis is down). */
  take(projectId: string, limit: number): Promise<ProjectSlot | undefined>;
}

/** One process's count: checked and counted in one synchronous step, so concurrent starts cannot both pass. */
export class InMemoryProjectSlots implements ProjectSlots {
  readonly #held = new KeyedCounts();

  async take(projectId: string, limit: number): Promise<ProjectSlot | undefined> {
    if (this.#held.get(projectId) >= limit) return undefined;
    this.#held.add(projectId);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.#held.release(projectId);
      },
    };
  }
}
