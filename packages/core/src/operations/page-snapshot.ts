// The snapshot a model-driven operation reads: of the frame the request names, optionally scoped by
// a selector, with variable values masked. Its element xpaths start at the page's main frame.
import type { Frame } from 'playwright-core';
import { resolveTarget } from '../dom/resolve-target.js';
import { DeckhandError } from '../errors.js';
import { captureSnapshot, type PageSnapshot } from '../snapshot/index.js';
import type { Variables } from '../types.js';

/** A scope selector is looked up once, briefly: the page is expected to be there already. */
const SCOPE_LOOKUP_MS = 1_000;

export interface SnapshotRequest {
  selector?: string;
  instruction?: string;
  variables?: Variables;
}

/** A snapshot starting at `frame` (the frame a request's frameId names). */
export async function snapshotOf(frame: Frame, request: SnapshotRequest): Promise<PageSnapshot> {
  if (request.selector) {
    // Same answer as extract without a model: a scope that matches nothing is the caller's mistake.
    const found = await resolveTarget(frame, request.selector, SCOPE_LOOKUP_MS);
    if (!found.found) throw new DeckhandError('validation_error', found.reason, [{ path: 'options.selector', message: found.reason }]);
    await found.target.element.dispose();
  }
  return captureSnapshot(frame.page(), {
    frame,
    selector: request.selector,
    instruction: request.instruction,
    maskValues: variableValues(request.variables),
  });
}

/** The values of a call's variables as strings: masked in snapshots, refused by the cache. */
export function variableValues(variables: Variables | undefined): string[] {
  return Object.values(variables ?? {})
    .map((v) => String(typeof v === 'object' ? v.value : v))
    .filter((v) => v.length > 0);
}
