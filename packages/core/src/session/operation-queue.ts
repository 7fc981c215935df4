// Runs a session's operations one at a time, in arrival order. An operation whose caller gives up
// (its signal aborts) before its turn is dropped and never touches the browser. The queue is bounded:
// each waiting operation holds a request (a socket, a stream) open, and 200 of them on one session
// held 200 sockets for nothing but their turn.
import { DeckhandError } from '../errors.js';

/** What a client is told to wait past a full queue: operations take seconds, not minutes. */
const FULL_RETRY_AFTER_S = 2;

export class OperationQueue {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly max: number) {}

  /** Operations queued or running. */
  get size(): number {
    return this.waiting;
  }

  /** A 429 when another operation would be one too many (checked again by run). */
  assertRoom(): void {
    if (this.waiting >= this.max) {
      throw new DeckhandError('rate_limited', `This session already has ${this.max} operations running or waiting for their turn; retry in ${FULL_RETRY_AFTER_S} s`, undefined, { retryAfterSeconds: FULL_RETRY_AFTER_S });
    }
  }

  /**
   * Runs `operation` in its turn. Work it passes to `holdTurn` keeps the turn after the operation has
   * answered: the next operation starts once that work is done too (never rejects the caller).
   */
  run<T>(operation: (holdTurn: (work: Promise<unknown>) => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.assertRoom();
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(cancellation(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.tail = this.tail.then(async () => {
        signal?.removeEventListener('abort', onAbort);
        const held: Array<Promise<unknown>> = [];
        try {
          if (signal?.aborted) return reject(cancellation(signal));
          resolve(await operation((work) => held.push(work)));
        } catch (error) {
          reject(error);
        } finally {
          await Promise.allSettled(held);
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
