// The snapshot a model-driven operation reads: of the frame the request names, optionally scoped by
// a selector, with variable values masked. Its element xpaths start at the page's main frame.
import type { Frame } from 'playwright-core';
import { readAcrossNavigation } from '../dom/read-across-navigation.js';
import { resolveTarget, type ResolvedTarget } from '../dom/resolve-target.js';
import { DeckhandError } from '../errors.js';
import { captureSnapshot, type PageSnapshot } from '../snapshot/index.js';
import { variableValues } from '../actions/variables.js';
import type { Variables } from '../types.js';

/** A scope selector is looked up once, briefly: the page is expected to be there already. */
const SCOPE_LOOKUP_MS = 1_000;

export interface SnapshotRequest {
  selector?: string;
  instruction?: string;
  variables?: Variables;
}

/** The element options.selector names; one that matches nothing is the caller's mistake (400). The caller disposes it. */
export async function resolveScope(frame: Frame, selector: string): Promise<ResolvedTarget> {
  const found = await resolveTarget(frame, selector, SCOPE_LOOKUP_MS);
  if (!found.found) throw new DeckhandError('validation_error', found.reason, [{ path: 'options.selector', message: found.reason }]);
  return found.target;
}

/** A snapshot starting at `frame` (the frame a request's frameId names), taken again if a navigation replaced the page mid-read. */
export function snapshotOf(frame: Frame, request: SnapshotRequest): Promise<PageSnapshot> {
  return readAcrossNavigation(frame, async () => {
    const root = request.selector ? await resolveScope(frame, request.selector) : undefined;
    try {
      return await captureSnapshot(frame.page(), {
        frame,
        selector: request.selector,
        root,
        instruction: request.instruction,
        maskValues: variableValues(request.variables),
      });
    } finally {
      await root?.element.dispose().catch(() => undefined);
    }
  });
}
