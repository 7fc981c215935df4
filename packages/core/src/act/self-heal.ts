// Self-heal: when a stored Action's selector no longer finds an actionable element, the model finds
// the element its description names and the same method and arguments are tried once more there.
// Only the target is re-resolved: the Action already says what to do, and the caller meant that.
import type { OperationScope } from '../scope/operation-scope.js';
import type { ActRequest, ActResult, Action } from '../types.js';
import { toAction } from './chosen-action.js';
import { startOf, type FrameTarget } from './frame-target.js';
import type { ModelRun } from '../inference/model-run.js';
import { snapshotOf } from '../snapshot/page-snapshot.js';
import { performAction } from './perform-action.js';

export async function healAction(
  scope: OperationScope,
  at: FrameTarget,
  request: ActRequest & { input: Action },
  failed: ActResult,
  run: ModelRun,
): Promise<ActResult> {
  const action: Action = { ...(request.input as Action) };
  const description = action.description!;
  const frame = at.frame;
  const page = frame.page();
  const snapshot = await snapshotOf(scope, frame, { instruction: description });
  const [best] = await run.inference.observe({ instruction: description, snapshot, signal: scope.signal, usage: run.usage });
  const found = best ? await toAction(best, { snapshot, frame, page }) : undefined;
  if (!found || found.selector === action.selector) {
    scope.log({ category: 'self-heal', message: `no other element matches "${description}"`, level: 1 });
    return { ...failed, message: `${failed.message}; self-heal found no other element matching the description` };
  }
  // The old backendNodeId named the element that failed; the healed one is the new element's.
  const { backendNodeId: _stale, ...kept } = action;
  const healed: Action = { ...kept, selector: found.selector };
  if (found.backendNodeId !== undefined) healed.backendNodeId = found.backendNodeId;
  scope.log({ category: 'self-heal', message: `selector "${action.selector}" failed; retrying on ${healed.selector}`, level: 1 });
  const retried = await performAction(scope, { action: healed, variables: request.options?.variables, ...(await startOf(at, healed)), pinned: true });
  return { ...retried, message: `${retried.message} (self-healed: the given selector failed: ${failed.message})` };
}
