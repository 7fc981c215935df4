// Sessions that have ended but whose browser is still closing in the background. An end answers once
// the session is unreachable; its slot (server-wide and in its project) is held until its browser and
// files are freed, and a start that finds the limit reached waits for those closes before refusing.

/** How long a start waits for ended sessions to finish closing before it is refused. */
const CLOSE_WAIT_MS = 5_000;

export class ClosingSessions {
  readonly #byProject = new Map<string, Set<Promise<void>>>();
  #size = 0;

  /** Sessions still closing, across projects. */
  get size(): number {
    return this.#size;
  }

  has(projectId: string): boolean {
    return this.#byProject.has(projectId);
  }

  /** Counts `closed` (which never rejects) until it settles. */
  add(projectId: string, closed: Promise<void>): void {
    const held = this.#byProject.get(projectId) ?? new Set<Promise<void>>();
    this.#byProject.set(projectId, held);
    held.add(closed);
    this.#size++;
    void closed.finally(() => {
      held.delete(closed);
      if (held.size === 0 && this.#byProject.get(projectId) === held) this.#byProject.delete(projectId);
      this.#size--;
    });
  }

  /** Resolves once every closing session has closed (server shutdown). */
  async all(): Promise<void> {
    await Promise.all([...this.#byProject.values()].flatMap((set) => [...set]));
  }

  /** Resolves once the project's (or, with no project, every) closing session has closed, or after `maxMs`. */
  async closed(projectId?: string, maxMs = CLOSE_WAIT_MS): Promise<void> {
    const waiting = projectId === undefined ? [...this.#byProject.values()].flatMap((set) => [...set]) : [...(this.#byProject.get(projectId) ?? [])];
    if (waiting.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
    try {
      await Promise.race([Promise.all(waiting), bound]);
    } finally {
      clearTimeout(timer);
    }
  }
}
