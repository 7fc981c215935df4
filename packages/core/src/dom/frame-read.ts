// Reads of a page's child frames, which the page (not the client) chose. Playwright waits forever for
// a frame that never gets a script context (a blocked file: or chrome: address leaves it without a
// document) or never yields its thread (a busy loop in a cross-origin frame), so such a frame is
// read only when its address is a web page, within a bound, and is otherwise skipped with a reason.
import type { Frame } from 'playwright-core';

/** How long one child frame's own read may take before it is skipped. */
export const CHILD_FRAME_READ_MS = 5_000;

/** Addresses whose documents Deckhand reads; about: covers about:blank and srcdoc frames. */
const READABLE_SCHEMES = new Set(['http:', 'https:', 'about:', 'data:', 'blob:']);

export interface SkippedFrame {
  /** The frame's address; empty when it has none. */
  url: string;
  reason: string;
}

/** How an operation reports a skipped frame (log line and server log). */
export function describeSkippedFrame({ url, reason }: SkippedFrame): string {
  return url ? `skipped the frame ${url}: ${reason}` : `skipped a frame: ${reason}`;
}

/**
 * Reads Deckhand gave up on, per frame, until they settle: a frame that has not answered one read
 * would not answer the next either, so it is skipped at once instead of costing the bound again.
 */
const abandoned = new WeakMap<Frame, Promise<unknown>>();

export interface FrameReadOptions {
  /** Bound of this read; CHILD_FRAME_READ_MS unless the read has its own in-page bound to honour. */
  boundMs?: number;
  /** Where a skipped frame is reported. */
  skipped?: SkippedFrame[];
}

/**
 * `read()` of `frame`, or null when the frame is skipped. A page's main frame is exempt from the
 * address rule: it is the page the client navigated to, and an error page there explains a failure.
 * A read that fails (the frame navigated or detached) rejects as before.
 */
export async function readFrame<T>(frame: Frame, read: () => Promise<T>, options: FrameReadOptions = {}): Promise<T | null> {
  const boundMs = options.boundMs ?? CHILD_FRAME_READ_MS;
  const skip = (reason: string) => {
    options.skipped?.push({ url: frame.url(), reason });
    return null;
  };
  const refused = frame.parentFrame() ? unreadableReason(frame.url()) : undefined;
  if (refused) return skip(refused);
  if (abandoned.has(frame)) return skip('it has not answered an earlier read yet');

  const work = read();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), boundMs);
  });
  try {
    const result = await Promise.race([work, timedOut]);
    if (result !== TIMED_OUT) return result;
  } finally {
    clearTimeout(timer);
  }
  abandoned.set(frame, work);
  const forget = () => abandoned.get(frame) === work && abandoned.delete(frame);
  work.then(forget, forget);
  return skip(`it did not answer within ${boundMs} ms`);
}

const TIMED_OUT = Symbol('timed out');

function unreadableReason(url: string): string | undefined {
  if (url === '') return 'its address was blocked or has not loaded';
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    return 'its address is not a URL';
  }
  return READABLE_SCHEMES.has(scheme) ? undefined : `${scheme} is not a web page address`;
}
