// Chromium 156's headless shell itself dies (SIGSEGV, a null read) when a page's renderer dies while a
// screenshot is being taken: measured on this machine, 16 of 60 browsers died with a screenshot started
// 0-30 ms before Page.crash, 0 of 60 with none, 0 of 60 with one sent just after. The replay takes a
// picture after every operation and the live page polls pictures, so a page crashed through the relay
// took the whole browser (every session in it) now and then. A page is therefore crashed on purpose only
// once no screenshot is being taken, and no screenshot starts while a crash is under way (sent, and its
// page not yet reported crashed or gone: Page.crash itself is never answered). Each wait is bounded, as a
// screenshot of a frozen page may never be answered either.
/** The longest a command waits for the other kind to finish, and a crash counts as under way. */
const HOLD_MS = 2_000;

const KINDS = {
  'Page.crash': { is: 'crashes', waitsFor: 'shots' },
  'Page.captureScreenshot': { is: 'shots', waitsFor: 'crashes' },
} as const;

export class CrashGate {
  /** Our ids on the pipe of screenshots sent and not yet answered, and of crashes under way (with their page's session). */
  readonly #inFlight = { shots: new Map<number, string | undefined>(), crashes: new Map<number, string | undefined>() };
  #held: Array<() => void> = [];

  /** Runs `send` (the command with our id `id`, on `sessionId`) now, or once nothing it must not overlap is in flight. */
  pass(id: number, method: string, sessionId: string | undefined, send: () => void, since = Date.now()): void {
    const kind = KINDS[method as keyof typeof KINDS];
    if (kind === undefined) return send();
    const waited = Date.now() - since;
    if (this.#inFlight[kind.waitsFor].size > 0 && waited < HOLD_MS) {
      const retry = () => {
        clearTimeout(timer);
        this.#held = this.#held.filter((held) => held !== retry);
        this.pass(id, method, sessionId, send, since);
      };
      const timer = setTimeout(retry, HOLD_MS - waited);
      this.#held.push(retry);
      return;
    }
    this.#inFlight[kind.is].set(id, sessionId);
    if (kind.is === 'crashes') setTimeout(() => this.#done('crashes', id), HOLD_MS).unref();
    send();
  }

  /** The command with our id `id` was answered, or will never be (its client went away). */
  answered(id: number): void {
    this.#done('shots', id);
    this.#done('crashes', id);
  }

  /** An event from the browser: a page that crashed or went away ends the crash sent to it. */
  event(method: string | undefined, sessionId: string | undefined, detached?: string): void {
    if (method !== 'Inspector.targetCrashed' && method !== 'Target.detachedFromTarget') return;
    const ended = method === 'Target.detachedFromTarget' ? detached : sessionId;
    for (const [id, session] of this.#inFlight.crashes) if (session === ended) this.#done('crashes', id);
  }

  #done(kind: 'shots' | 'crashes', id: number): void {
    if (!this.#inFlight[kind].delete(id)) return;
    for (const retry of [...this.#held]) retry();
  }
}
