// extract with neither instruction nor schema: the visible text of the frame, or of options.selector.
import type { SkippedFrame } from '../dom/frame-read.js';
import { readAcrossNavigation } from '../dom/read-across-navigation.js';
import { visibleTextOf } from '../dom/visible-text.js';
import { Deadline } from '../session/deadline.js';
import type { OperationScope } from '../session/operation-scope.js';
import type { ExtractRequest } from '../types.js';
import { reportSkippedFrames, resolveScope } from './page-snapshot.js';

export async function extractText(scope: OperationScope, request: ExtractRequest): Promise<{ pageText: string }> {
  const deadline = new Deadline(scope.signal, request.options?.timeout ?? scope.settings.defaultTimeoutMs, 'extract');
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
    const root = selector ? await resolveScope(frame, selector) : undefined;
    const skipped: SkippedFrame[] = [];
    try {
      return { pageText: await visibleTextOf(root?.frame ?? frame, skipped, root?.element) };
    } finally {
      reportSkippedFrames(scope, skipped);
      await root?.element.dispose().catch(() => undefined);
    }
  });
}
