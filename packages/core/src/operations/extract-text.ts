// extract with neither instruction nor schema: the visible text of the frame, or of options.selector.
import { resolveTarget } from '../dom/resolve-target.js';
import { visibleTextOf } from '../dom/visible-text.js';
import { DeckhandError } from '../errors.js';
import { Deadline } from '../session/deadline.js';
import type { OperationScope } from '../session/operation-scope.js';
import type { ExtractRequest } from '../types.js';

/** A scope selector is looked up once, briefly: the page is expected to be there already. */
const SCOPE_LOOKUP_MS = 1_000;

export async function extractText(scope: OperationScope, request: ExtractRequest): Promise<{ pageText: string }> {
  const deadline = new Deadline(scope.signal, request.options?.timeout, 'extract');
  try {
    return await deadline.race(pageTextOf(scope, request));
  } finally {
    deadline.dispose();
  }
}

async function pageTextOf(scope: OperationScope, request: ExtractRequest): Promise<{ pageText: string }> {
  const frame = await scope.frame(request.frameId);
  const selector = request.options?.selector;
  if (!selector) return { pageText: await visibleTextOf(frame) };
  const resolution = await resolveTarget(frame, selector, SCOPE_LOOKUP_MS);
  if (!resolution.found) {
    throw new DeckhandError('validation_error', resolution.reason, [{ path: 'options.selector', message: resolution.reason }]);
  }
  return { pageText: await visibleTextOf(resolution.target.frame, resolution.target.element) };
}
