// Runs a session's operations one at a time, in arrival order. An operation whose caller gives up
// (its signal aborts) before its turn is dropped and never touches the browser.
import { DeckhandError } from '../errors.js';

export class OperationQueue {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  /** Operations queued or running. */
  get size(): number {
    return this.waiting;
  }

  run<T>(operation: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(cancellation(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.tail = this.tail.then(async () => {
        signal?.removeEventListener('abort', onAbort);
        try {
          if (signal?.aborted) return reject(cancellation(signal));
          resolve(await operation());
        } catch (error) {
          reject(error);
        } finally {
          this.waiting--;
        }
      });
    });
  }
}

function cancellation(signal: AbortSignal): Error {
  return signal.reason instanceof DeckhandError
    ? signal.reason
    : new DeckhandError('timeout', 'The operation was cancelled before it started');
}
