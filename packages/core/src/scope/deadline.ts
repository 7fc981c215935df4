// Bounds one operation: the caller's signal (client gone, server shutting down) plus a timeout (the
// request's, else a default: no operation runs unbounded), combined so inner waits can ask how long
// they may still take.
import { DeckhandError } from '../errors.js';

const WIND_DOWN_MS = 2_000;

export class Deadline {
  readonly signal: AbortSignal;
  private readonly at: number;
  private readonly timer: NodeJS.Timeout;

  constructor(parent: AbortSignal, timeoutMs: number, what: string) {
    this.at = Date.now() + timeoutMs;
    const own = new AbortController();
    this.timer = setTimeout(() => own.abort(new DeckhandError('timeout', `${what} timed out after ${timeoutMs} ms`)), timeoutMs);
    this.signal = AbortSignal.any([parent, own.signal]);
  }

  get expired(): boolean {
    return Date.now() >= this.at;
  }

  /** Milliseconds left, capped (Playwright wants finite timeouts); at least 1 so 0 never means "forever". */
  remaining(cap: number): number {
    return Math.max(1, Math.min(cap, this.at - Date.now()));
  }

  /**
   * The work's outcome, or the abort reason once the deadline passes or the caller gives up. Even then
   * it waits (briefly) for the work to wind down: the session's next operation must not start while
   * this one still drives the browser. Inner waits are bounded by remaining(), so this is short.
   */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.signal.aborted) return Promise.reject(abortReason(this.signal));
    return new Promise<T>((resolve, reject) => {
      let abandoned = false;
      const onAbort = () => {
        abandoned = true;
        const windDown = new Promise((settle) => setTimeout(settle, WIND_DOWN_MS).unref());
        void Promise.race([work.catch(() => undefined), windDown]).then(() => reject(abortReason(this.signal)));
      };
      this.signal.addEventListener('abort', onAbort, { once: true });
      work
        .then(
          (value) => abandoned || resolve(value),
          (error) => abandoned || reject(error),
        )
        .finally(() => this.signal.removeEventListener('abort', onAbort));
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

/** Its own deadline's error, else the caller gave up (a client that went away): a cancellation, not a failure. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof DeckhandError ? signal.reason : new DeckhandError('timeout', 'The operation was cancelled: its caller went away');
}
