// Executes a resolved Action (from a model or the act cache) through the deterministic executor, in
// the page whose main frame its selector starts from, within the operation's deadline.
import type { Page } from 'playwright-core';
import type { CoreConfig } from '../config.js';
import { performAction } from '../actions/perform-action.js';
import type { OperationScope } from '../session/operation-scope.js';
import type { Action, ActResult, Variables } from '../types.js';
import type { ModelRun } from './model-run.js';

export async function runAction(
  scope: OperationScope,
  page: Page,
  action: Action,
  variables: Variables | undefined,
  run: Pick<ModelRun, 'signal' | 'remainingMs'>,
  tuning: CoreConfig,
): Promise<ActResult> {
  const inner: OperationScope = {
    ...scope,
    signal: run.signal,
    frame: async () => page.mainFrame(),
    // The operation's own deadline already counts actTimeoutMs; the executor must not restart it.
    settings: { ...scope.settings, actTimeoutMs: undefined },
  };
  return performAction(inner, { input: action, options: { variables, timeout: run.remainingMs() } }, tuning);
}
