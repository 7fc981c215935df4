// Sessions that have ended but whose browser is still closing in the background. An end answers once
// the session is unreachable; the server's capacity counts the browser until it is freed, and a start
// that finds the server full waits for those closes before refusing. (The project's own slot is freed
// at the end's answer: see SessionManager.)

/** How long a start waits for ended sessions to finish closing before it is refused. */
const CLOSE_WAIT_MS = 5_000;

export class ClosingSessions {
  readonly #closing = new Set<Promise<void>>();

  /** Sessions still closing. */
  get size(): number {
    return this.#closing.size;
  }

  /** Counts `closed` (which never rejects) until it settles. */
  add(closed: Promise<void>): void {
    this.#closing.add(closed);
    void closed.finally(() => this.#closing.delete(closed));
  }

  /** Resolves once every closing session has closed (server shutdown). */
  async all(): Promise<void> {
    await Promise.all([...this.#closing]);
  }

  /** Resolves once every closing session has closed, or after `maxMs`. */
  async closed(maxMs = CLOSE_WAIT_MS): Promise<void> {
    if (this.#closing.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
    try {
      await Promise.race([Promise.all([...this.#closing]), bound]);
    } finally {
      clearTimeout(timer);
    }
  }
}
