// act's two forms: an instruction (model, through the act cache when it is on) and an Action object
// (no model, unless its selector fails and self-heal asks one to find the described element).
import { performAction } from '../actions/perform-action.js';
import { actionMethod } from '../actions/action-methods.js';
import { isDeckhandError } from '../errors.js';
import type { OperationScope } from '../session/operation-scope.js';
import type { ActRequest, ActResult, Action } from '../types.js';
import { cachedAct, type CacheUse } from './cached-act.js';
import { actOnInstruction } from './model-act.js';
import { withModel, type ModelDeps } from './model-run.js';
import { healAction } from './self-heal.js';

export function actWithInstruction(
  scope: OperationScope,
  request: ActRequest & { input: string },
  deps: ModelDeps,
  cacheUse: CacheUse | undefined,
): Promise<ActResult> {
  const options = request.options ?? {};
  return withModel(scope, options.model, options.timeout ?? scope.settings.actTimeoutMs, 'act', deps, async (run) => {
    const frame = await scope.frame(request.frameId);
    if (cacheUse) return cachedAct(scope, frame, request, run, deps.config, cacheUse);
    return actOnInstruction(scope, frame, { instruction: request.input, variables: options.variables }, run, deps.config);
  });
}

export async function actWithAction(scope: OperationScope, request: ActRequest & { input: Action }, deps: ModelDeps): Promise<ActResult> {
  const timeout = request.options?.timeout ?? scope.settings.actTimeoutMs ?? scope.settings.defaultTimeoutMs;
  const endsAt = Date.now() + timeout;
  const result = await performAction(scope, request, deps.config);
  if (result.success || !scope.settings.selfHeal || !healable(request.input)) return result;
  const remaining = endsAt - Date.now();
  if (remaining <= 0) return result;
  try {
    return await withModel(scope, request.options?.model, remaining, 'self-heal', deps, (run) => healAction(scope, request, result, run, deps.config));
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
