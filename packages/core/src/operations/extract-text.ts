// extract with neither instruction nor schema: the visible text of the frame, or of options.selector.
import { readAcrossNavigation } from '../dom/read-across-navigation.js';
import { visibleTextOf } from '../dom/visible-text.js';
import { Deadline } from '../session/deadline.js';
import type { OperationScope } from '../session/operation-scope.js';
import type { ExtractRequest } from '../types.js';
import { resolveScope } from './page-snapshot.js';

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
  return readAcrossNavigation(frame, async () => {
    if (!selector) return { pageText: await visibleTextOf(frame) };
    const root = await resolveScope(frame, selector);
    try {
      return { pageText: await visibleTextOf(root.frame, root.element) };
    } finally {
      await root.element.dispose().catch(() => undefined);
    }
  });
}
