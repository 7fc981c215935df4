// act with an instruction: the model picks one action from a snapshot of the frame (seeing variables
// by name only), the action is mapped to a replayable selector and run by the deterministic executor.
import type { CachedTarget } from '../cache/index.js';
import type { ChosenAction, VariableInfo } from '../inference/index.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { Action, ActResult, Variables } from '../types.js';
import { toAction } from './chosen-action.js';
import { startOf, type FrameTarget } from './frame-target.js';
import type { ModelRun } from '../inference/model-run.js';
import { snapshotOf } from '../snapshot/page-snapshot.js';
import { performAction, undoneStep, type EndCheck } from './perform-action.js';
import { redactVariables } from './variables.js';

export interface InstructionAct {
  instruction: string;
  variables?: Variables;
}

/** `onResolved` hears what the chosen element was before it is acted on (the act cache keeps it). */
export async function actOnInstruction(
  scope: OperationScope,
  at: FrameTarget,
  request: InstructionAct,
  run: ModelRun,
  onResolved?: (target: CachedTarget | null) => void,
): Promise<ActResult> {
  const { instruction, variables } = request;
  const frame = at.frame;
  const snapshot = await snapshotOf(scope, frame, { instruction });
  const chosen = await run.inference.chooseAction({ instruction, snapshot, variables: variableInfo(variables), signal: scope.signal, usage: run.usage });
  if ('failure' in chosen) {
    scope.log({ category: 'act', message: `no action for the instruction: ${chosen.failure}`, level: 1 });
    return { success: false, message: chosen.failure, actionDescription: instruction, actions: [] };
  }
  const page = frame.page();
  // A model may chain steps on the same page ("enter the password and log in"): each runs after the one before succeeds.
  const done: Action[] = [];
  let result: ActResult | undefined;
  let count = 0;
  const endChecks: EndCheck[] = [];
  for (let step: ChosenAction | undefined = chosen; step; step = step.then) {
    count += 1;
    const action = await toAction(step, { snapshot, frame, page });
    const element = snapshot.elements.get(step.elementId);
    onResolved?.(element ? { role: element.role, name: element.name } : null);
    scope.log({ category: 'act', message: `${run.inference.identity} chose ${action.method} on ${action.selector}`, level: 1 });
    result = await performAction(scope, { action, variables, ...(await startOf(at, action)), endChecks, pinned: true });
    if (!result.success) {
      // Success means every step was done: say which step stopped the chain and which ran before it.
      const before = done.length > 0 ? ` Done before it: ${done.map((a) => a.description).join('; ')}.` : ' Nothing was done before it.';
      if (count > 1 || step.then) result = { ...result, message: `Stopped at step ${count} (${step.description}): ${result.message}.${before}` };
      done.push(...result.actions);
      break;
    }
    done.push(...result.actions);
  }
  if (!chosen.then) return result!;
  // Each step held when it ran; a later one may have undone it (two boxes that untick each other).
  const undone = result!.success ? await undoneStep(endChecks) : undefined;
  if (undone) {
    const message = redactVariables(`${undone.description} did not hold after the last step: ${undone.undone}. Steps done: ${done.map((a) => a.description ?? `${a.method} ${a.selector}`).join('; ')}`, variables);
    return { ...result!, success: false, message, actionDescription: instruction, actions: done };
  }
  // A chain's reply says every step it did, not only the last one's selector.
  const message = result!.success ? redactVariables(`Done ${done.length} steps: ${done.map((a) => a.description ?? `${a.method} ${a.selector}`).join('; ')}`, variables) : result!.message;
  return { ...result!, message, actionDescription: instruction, actions: done };
}

/** What the model may know of the variables: names and descriptions, never values. */
export function variableInfo(variables: Variables | undefined): VariableInfo[] {
  return Object.entries(variables ?? {}).map(([name, value]) =>
    typeof value === 'object' && value.description ? { name, description: value.description } : { name },
  );
}
