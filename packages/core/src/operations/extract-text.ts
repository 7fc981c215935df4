// extract with neither instruction nor schema: the visible text of the frame, or of options.selector.
import type { SkippedFrame } from '../dom/frame-read.js';
import { readAcrossNavigation } from '../dom/read-across-navigation.js';
import { visibleTextOf } from '../dom/visible-text.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { ExtractRequest } from '../types.js';
import { reportSkippedFrames, resolveScope, settledForRead } from '../snapshot/page-snapshot.js';

export async function extractText(scope: OperationScope, request: ExtractRequest): Promise<{ pageText: string }> {
  const frame = await scope.frame(request.frameId);
  const selector = request.options?.selector;
  await settledForRead(scope, frame);
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
