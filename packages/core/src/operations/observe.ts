// observe: the model lists the elements matching an instruction (all notable actionable elements when
// there is none), each as a replayable Action.
import type { OperationScope } from '../scope/operation-scope.js';
import type { Action, ObserveRequest } from '../types.js';
import { toActions } from '../act/chosen-action.js';
import { withModel } from '../inference/model-run.js';
import { snapshotOf } from '../snapshot/page-snapshot.js';

/**
 * A long list gets backend node ids for its first entries only. Without an instruction the list is the
 * page's elements in order, so the walk itself hands back the ids of the first ones (no lookup after it).
 */
const BACKEND_ID_LIMIT = 25;

export function observe(scope: OperationScope, request: ObserveRequest): Promise<Action[]> {
  const options = request.options ?? {};
  return withModel(scope, options.model, 'observe', async (run) => {
    const frame = await scope.frame(request.frameId);
    const instruction = request.instruction?.trim() || undefined;
    const snapshot = await snapshotOf(scope, frame, { selector: options.selector, instruction, backendNodeIds: instruction ? undefined : BACKEND_ID_LIMIT });
    const chosen = await run.inference.observe({ instruction, snapshot, signal: scope.signal, usage: run.usage });
    const page = frame.page();
    const actions = await toActions(chosen, { snapshot, frame, page }, BACKEND_ID_LIMIT);
    scope.log({ category: 'observe', message: `found ${actions.length} element(s)`, level: 1 });
    return actions;
  });
}
