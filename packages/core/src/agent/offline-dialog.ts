// Whether the frame the agent acts in shows an open dialog: a <dialog open>, or an element with
// role dialog or alertdialog (or aria-modal) that is rendered. Read once, for the "confirm" reading.
import type { OperationScope } from '../scope/operation-scope.js';

export async function dialogOpen(scope: OperationScope, frameId: Parameters<OperationScope['frame']>[0]): Promise<boolean> {
  const frame = await scope.frame(frameId);
  return frame
    .evaluate(() =>
      [...document.querySelectorAll('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]')].some(
        (d) => (d as HTMLElement).getClientRects().length > 0 && getComputedStyle(d).visibility === 'visible',
      ),
    )
    .catch(() => false);
}
