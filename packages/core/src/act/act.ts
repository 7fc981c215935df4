// act's two forms: an instruction (model, through the act cache when the scope carries it) and an
// Action object (no model, unless its selector fails and self-heal asks one to find the described element).
import { performAction } from './perform-action.js';
import { actionMethod } from './action-methods.js';
import { isDeckhandError } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { ActRequest, ActResult, Action } from '../types.js';
import { cachedAct } from './cached-act.js';
import { actOnInstruction } from './model-act.js';
import { withModel } from '../inference/model-run.js';
import { healAction } from './self-heal.js';
import { resolveFrameTarget } from './frame-target.js';

export function act(scope: OperationScope, request: ActRequest): Promise<ActResult> {
  const input = request.input;
  return typeof input === 'string' ? actWithInstruction(scope, { ...request, input }) : actWithAction(scope, { ...request, input });
}

function actWithInstruction(scope: OperationScope, request: ActRequest & { input: string }): Promise<ActResult> {
  const options = request.options ?? {};
  return withModel(scope, options.model, 'act', async (run) => {
    const at = await resolveFrameTarget(scope, request.frameId);
    if (scope.cache) return cachedAct(scope, at, request, run, scope.cache);
    return actOnInstruction(scope, at, { instruction: request.input, variables: options.variables }, run);
  });
}

async function actWithAction(scope: OperationScope, request: ActRequest & { input: Action }): Promise<ActResult> {
  // The frame is found once, before the action, so a frameId naming no frame fails as it always has.
  const at = await resolveFrameTarget(scope, request.frameId);
  const result = await performAction(scope, { action: request.input, variables: request.options?.variables, frame: at.frame });
  if (result.success || !scope.settings.selfHeal || !healable(request.input)) return result;
  if (scope.deadline.expired) return result;
  try {
    return await withModel(scope, request.options?.model, 'self-heal', (run) => healAction(scope, at, request, result, run));
  } catch (error) {
    // An Action needs no model; without a usable key the honest answer is still the failed action.
    if (isDeckhandError(error) && error.code === 'missing_model_key') return { ...result, message: `${result.message}; self-heal skipped: ${error.message}` };
    throw error;
  }
}

/** A known method with a description to go by; other failures are the Action's own fault. */
function healable(action: Action): boolean {
  return Boolean(action.description?.trim()) && actionMethod(action.method ?? 'click') !== undefined;
}
