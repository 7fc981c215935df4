// The snapshot a model-driven operation reads: of the frame the request names, optionally scoped by
// a selector, with the session's secrets masked. Its element xpaths start at the page's main frame.
import type { Frame } from 'playwright-core';
import { describeSkippedFrame, type SkippedFrame } from '../dom/frame-read.js';
import { readAcrossNavigation } from '../dom/read-across-navigation.js';
import { settledBeforeRead, UNSETTLED_MESSAGE } from '../dom/settle.js';
import { resolveTarget, type ResolvedTarget } from '../selectors/index.js';
import { DeckhandError } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { captureSnapshot, type PageSnapshot } from './index.js';

/** A scope selector is looked up once, briefly: the page is expected to be there already. */
const SCOPE_LOOKUP_MS = 1_000;

export interface SnapshotRequest {
  selector?: string;
  instruction?: string;
  /** See SnapshotOptions.backendNodeIds. */
  backendNodeIds?: number;
}

/**
 * The element options.selector names. One that matches nothing on this page is a request that
 * cannot be carried out (422), not a malformed one: the same selector may match on another page.
 * The caller disposes it.
 */
export async function resolveScope(frame: Frame, selector: string): Promise<ResolvedTarget> {
  const found = await resolveTarget(frame, selector, SCOPE_LOOKUP_MS);
  if (!found.found) throw new DeckhandError('unprocessable', `options.selector: ${found.reason}`);
  return found.target;
}

/**
 * A snapshot starting at `frame` (the frame a request's frameId names), once the last action has
 * settled, taken again if a navigation replaced the page mid-read.
 */
export async function snapshotOf(scope: OperationScope, frame: Frame, request: SnapshotRequest): Promise<PageSnapshot> {
  await settledForRead(scope, frame);
  const read = async () => {
    const root = request.selector ? await resolveScope(frame, request.selector) : undefined;
    const skippedFrames: SkippedFrame[] = [];
    try {
      return await captureSnapshot(frame.page(), {
        frame,
        selector: request.selector,
        root,
        instruction: request.instruction,
        maskValues: scope.secrets,
        skippedFrames,
        backendNodeIds: request.backendNodeIds,
        whenParsed: true,
      });
    } finally {
      reportSkippedFrames(scope, skippedFrames);
      await root?.element.dispose().catch(() => undefined);
    }
  };
  // The walk says whether its document was parsed, so no evaluation of its own asks first; a scope is
  // looked up before the walk, and on a document still being parsed it may not be there yet.
  return readAcrossNavigation(frame, read, { readChecksParsed: !request.selector });
}

/** Waits (within the operation's deadline and the session's settle bound) until the last action has settled. */
export async function settledForRead(scope: OperationScope, frame: Frame): Promise<void> {
  const settled = await settledBeforeRead(frame.page().context(), scope.settings.domSettleTimeoutMs, { signal: scope.signal });
  if (!settled) scope.log({ category: 'settle', message: UNSETTLED_MESSAGE, level: 2 });
}

/** A frame left out of what the operation read is said in its log (the event stream and the server log). */
export function reportSkippedFrames(scope: OperationScope, skipped: SkippedFrame[]): void {
  for (const frame of skipped) scope.log({ category: 'frames', message: describeSkippedFrame(frame), level: 1 });
}
