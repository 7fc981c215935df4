// Executes a resolved Action (from a model or the act cache) through the deterministic executor, in
// the page whose main frame its selector starts from, within the operation's deadline. goBack is
// the one page-level step the executor has no method for.
import type { Page } from 'playwright-core';
import type { CoreConfig } from '../config.js';
import { performAction } from '../actions/perform-action.js';
import { GO_BACK } from '../inference/index.js';
import type { OperationScope } from '../session/operation-scope.js';
import type { Action, ActResult, Variables } from '../types.js';
import type { ModelRun } from './model-run.js';

const GO_BACK_TIMEOUT_MS = 30_000;

export async function runAction(
  scope: OperationScope,
  page: Page,
  action: Action,
  variables: Variables | undefined,
  run: Pick<ModelRun, 'signal' | 'remainingMs'>,
  tuning: CoreConfig,
): Promise<ActResult> {
  if (action.method === GO_BACK) return goBack(scope, page, action, run);
  const inner: OperationScope = {
    ...scope,
    signal: run.signal,
    frame: async () => page.mainFrame(),
    // The operation's own deadline already counts actTimeoutMs; the executor must not restart it.
    settings: { ...scope.settings, actTimeoutMs: undefined },
  };
  return performAction(inner, { input: action, options: { variables, timeout: run.remainingMs() } }, tuning);
}

async function goBack(scope: OperationScope, page: Page, action: Action, run: Pick<ModelRun, 'remainingMs'>): Promise<ActResult> {
  const report = (success: boolean, message: string): ActResult => ({
    success,
    message,
    actionDescription: action.description ?? 'go back',
    actions: [action],
  });
  const before = page.url();
  const response = await page.goBack({ timeout: run.remainingMs() ?? GO_BACK_TIMEOUT_MS, waitUntil: 'load' }).catch((error: Error) => error);
  if (response instanceof Error) return report(false, `Going back failed: ${response.message.split('\n')[0]}`);
  // null means no navigation happened, unless only the fragment changed (same-document history).
  if (response === null && page.url() === before) return report(false, 'There is no previous page to go back to');
  scope.log({ category: 'action', message: `went back to ${page.url()}`, level: 1 });
  return report(true, `Action [goBack] performed successfully: now on ${page.url()}`);
}
