// Remembers recently ended sessions (bounded, oldest forgotten first) so late calls get 410, not 404.

export type EndReason = 'ended' | 'crashed' | 'expired';

export interface Tombstone {
  projectId: string;
  reason: EndReason;
  startedAt: number;
  endedAt: number;
}

export class Tombstones {
  private readonly entries = new Map<string, Tombstone>();

  constructor(private readonly limit: number) {}

  bury(sessionId: string, tombstone: Tombstone): void {
    this.entries.delete(sessionId);
    this.entries.set(sessionId, tombstone);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  find(sessionId: string): Tombstone | undefined {
    return this.entries.get(sessionId);
  }

  /** A project's remembered sessions, by id. */
  of(projectId: string): Array<[string, Tombstone]> {
    return [...this.entries].filter(([, tombstone]) => tombstone.projectId === projectId);
  }
}
