// act with an instruction: the model picks one action from a snapshot of the frame (seeing variables
// by name only), the action is mapped to a replayable selector and run by the deterministic executor.
import type { Frame } from 'playwright-core';
import type { CachedTarget } from '../cache/index.js';
import type { VariableInfo } from '../inference/index.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { ActResult, Variables } from '../types.js';
import { toAction } from './chosen-action.js';
import type { ModelRun } from './model-run.js';
import { snapshotOf } from './page-snapshot.js';
import { performAction } from '../actions/perform-action.js';

export interface InstructionAct {
  instruction: string;
  variables?: Variables;
}

/** `onResolved` hears what the chosen element was before it is acted on (the act cache keeps it). */
export async function actOnInstruction(
  scope: OperationScope,
  frame: Frame,
  request: InstructionAct,
  run: ModelRun,
  onResolved?: (target: CachedTarget | null) => void,
): Promise<ActResult> {
  const { instruction, variables } = request;
  const snapshot = await snapshotOf(scope, frame, { instruction });
  const chosen = await run.inference.chooseAction({ instruction, snapshot, variables: variableInfo(variables), signal: scope.signal, usage: run.usage });
  if ('failure' in chosen) {
    scope.log({ category: 'act', message: `no action for the instruction: ${chosen.failure}`, level: 1 });
    return { success: false, message: chosen.failure, actionDescription: instruction, actions: [] };
  }
  const page = frame.page();
  const action = await toAction(chosen, { snapshot, frame, page });
  const element = snapshot.elements.get(chosen.elementId);
  onResolved?.(element ? { role: element.role, name: element.name } : null);
  scope.log({ category: 'act', message: `${run.inference.identity} chose ${action.method} on ${action.selector}`, level: 1 });
  return performAction(scope, { action, variables, frame: page.mainFrame() });
}

/** What the model may know of the variables: names and descriptions, never values. */
export function variableInfo(variables: Variables | undefined): VariableInfo[] {
  return Object.entries(variables ?? {}).map(([name, value]) =>
    typeof value === 'object' && value.description ? { name, description: value.description } : { name },
  );
}
