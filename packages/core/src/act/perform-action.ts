// Runs one Action without a model: wait for the previous action to settle, resolve the target, act,
// and wait until nothing the action started is pending (the DOM's quiet is left to the next read,
// dom/settle.ts), within the operation's deadline. A target that is missing or refuses the action is
// a result (success: false), not an error.
import type { Frame } from 'playwright-core';
import { directLocator, plainQuery, resolvePinned, resolveTarget, type ResolvedTarget } from '../selectors/index.js';
import { ActionSettle, settledBeforeRead, UNSETTLED_MESSAGE } from '../dom/settle.js';
import { browserFailure, isDeckhandError } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { Action, ActResult, Variables } from '../types.js';
import { actionMethod } from './action-methods.js';
import { ActionFailure, explainRefusal } from './action-failure.js';
import { redactVariables, substituteVariables } from './variables.js';
import { endProblem, type EndState } from './end-state.js';
import { watchDialogs } from './dialog-watch.js';
import { replacedMessage } from './pinned-target.js';
import { missedClick } from './click-landing.js';

/** An action's end state, to read again after later steps (a chain's step may undo an earlier one). */
export interface EndCheck {
  description: string;
  problem(): Promise<string | undefined>;
}

/** The first step of a chain that no longer holds after its last step, with what the page did. */
export async function undoneStep(checks: EndCheck[]): Promise<{ description: string; undone: string } | undefined> {
  for (const check of checks) {
    const undone = await check.problem();
    if (undone) return { description: check.description, undone };
  }
  return undefined;
}

/** A chain's later read of an element it already acted on: a missing element is not an undone state. */
const RECHECK_MS = 1_000;

export interface ActionStep {
  action: Action;
  variables?: Variables;
  /** The frame its selector starts from. */
  frame: Frame;
  /** The selector as seen from `frame`, when that is not the action's own (frame-target.ts). */
  selector?: string;
  /** How long the target may take to appear and become actionable; default the server's setting. */
  lookupMs?: number;
  /** Collects the action's end state for a chain to read again after its last step. */
  endChecks?: EndCheck[];
  /**
   * The selector names an element the act grounded (a model's choice, a cached one), not the caller's
   * own selector: the element is acted on by handle, so a replacement in its place is never acted on (pinned-target.ts).
   */
  pinned?: boolean;
}

export async function performAction(scope: OperationScope, { action, variables, frame, selector: from, lookupMs, endChecks, pinned }: ActionStep): Promise<ActResult> {
  const method = action.method ?? 'click';
  const selector = action.selector ?? '';
  const local = from ?? selector;
  // Messages name the selector the caller knows, not the part of it that starts at the frame.
  const written = (message: string) => (local === selector ? message : message.replaceAll(`"${local}"`, `"${selector}"`));
  const report = (success: boolean, message: string): ActResult => ({
    success,
    message: redactVariables(written(message), variables),
    actionDescription: action.description ?? `${method} ${selector}`.trim(),
    actions: [action],
  });

  const handler = actionMethod(method);
  if (!handler) return report(false, `Unknown action method "${method}"`);
  if (!selector && !handler.pageLevel) return report(false, `Action "${method}" needs a selector`);

  const page = frame.page();
  const deadline = scope.deadline;
  const settled = await settledBeforeRead(page.context(), scope.settings.domSettleTimeoutMs, { quiet: false, signal: scope.signal });
  if (!settled) scope.log({ category: 'action', message: UNSETTLED_MESSAGE, level: 2 });
  const waitMs = () => deadline.remaining(lookupMs ?? scope.config.actionabilityTimeoutMs);
  // A selector Playwright reads as we do is found by the action itself (one call, as page.click);
  // a deep XPath through frames or shadow roots, or a pinned element, is walked to a handle first.
  const direct = local ? directLocator(frame, local) : undefined;
  const locator = pinned ? undefined : direct;
  // The watch starts while a walked path is looked up (one round trip less); what the page does
  // meanwhile counts as the action's, which can only make the next operation wait longer. A pinned
  // direct selector's handle is in `frame`, where the trusted input lands as a locator's would.
  const trustedInput = handler.trustedInput === true && direct !== undefined;
  // A pinned click or tick only evaluates in its element: it is held without a Playwright handle where it can be.
  const lookUp = pinned && handler.evaluatesOnly ? resolvePinned : resolveTarget;
  const [resolution, settle] = await Promise.all([local && !locator ? lookUp(frame, local, waitMs()) : undefined, ActionSettle.begin(page, frame, { trustedInput })]);
  if (resolution && !resolution.found) {
    settle.cancel();
    return report(false, resolution.reason);
  }
  const target = resolution?.target;
  if (target) await settle.watchAlso(target.frame);
  let state: void | EndState;
  const dialogs = watchDialogs(page.context());
  try {
    state = await handler.run({
      page,
      frame: target?.frame ?? frame,
      element: locator ?? target?.element,
      query: locator ? plainQuery(local) : undefined,
      args: (action.arguments ?? []).map((value) => substituteVariables(value, variables)),
      timeoutMs: waitMs(),
      resolve: (other) => resolveTarget(target?.frame ?? frame, other, waitMs()),
      files: scope.uploadedFiles,
    });
  } catch (error) {
    dialogs.stop();
    settle.cancel();
    const replaced = pinned && target && !page.isClosed() ? await replacedMessage(target.element, { frame, selector: local, chosen: action.description ?? `${method} ${selector}`, verb: handler.verb }) : undefined;
    const failure = page.isClosed() || isDeckhandError(error) ? undefined : replaced ? new ActionFailure(replaced) : await explainFailure(error, target ?? (locator && { frame, selector: local }));
    release(target);
    if (!failure) throw error;
    scope.log({ category: 'action', message: `${method} on ${selector || 'the page'} failed`, level: 1 });
    return report(false, failure.message);
  }
  scope.log({ category: 'action', message: `${handler.verb} ${selector || 'the page'}`, level: 1 });
  await settle.actionDone({ quietMs: scope.config.settleQuietMs, timeoutMs: scope.settings.domSettleTimeoutMs });
  // The act answers once nothing the action started is pending; the DOM's last changes are the next read's to wait for.
  const calm = await settledBeforeRead(page.context(), scope.settings.domSettleTimeoutMs, { quiet: false, signal: scope.signal });
  if (!calm) scope.log({ category: 'action', message: 'page did not settle before the bound; continuing', level: 2 });
  const dismissed = dialogs.stop();
  if (dismissed.length > 0) {
    release(target);
    const which = dismissed.map((d) => `a ${d.type} "${d.message}"`).join(', then ');
    return report(false, `${action.description ?? `${method} ${selector}`} was done, but the page asked ${which} and it was dismissed (Cancel), as every dialog is unless its answer is set first: what the page did next followed from that Cancel. To accept it, set the answer before the action (the MCP dialog tool) and act again`);
  }
  const element = locator ?? target?.element;
  // A click is what reached the element, not the input Playwright sent (click-landing.ts).
  const missed = handler.clicks && element && !page.isClosed() ? await missedClick(await settle.pressIn(target?.frame ?? frame), element, action.description ?? `${method} ${selector}`, handler.verb) : undefined;
  if (missed) {
    release(target);
    scope.log({ category: 'action', message: `${method} on ${selector} did not reach its element`, level: 1 });
    return report(false, missed);
  }
  // Success is what the element holds once the page settled, not that the action ran (end-state.ts);
  // a handle's element replaced by a re-render is read in its place, through the selector.
  const reread = local ? () => endProblemAt(frame, local, state!, page.isClosed()) : undefined;
  const undone = state && element && !page.isClosed() ? await endProblem(element, state, RECHECK_MS, reread).catch(() => undefined) : undefined;
  release(target);
  if (undone) {
    scope.log({ category: 'action', message: `${method} on ${selector} was undone by the page`, level: 1 });
    return report(false, `${action.description ?? `${method} ${selector}`} did not hold: ${undone}`);
  }
  if (state && local) {
    const description = action.description ?? `${method} ${selector}`;
    endChecks?.push({ description, problem: () => endProblemAt(frame, local, state, page.isClosed()) });
  }
  return report(true, `Action [${method}] performed successfully on selector: ${selector || 'the page'}`);
}

/** The end state read again through the selector; an element gone (or a page closed) tells nothing. */
async function endProblemAt(frame: Frame, selector: string, state: EndState, closed: boolean): Promise<string | undefined> {
  if (closed || frame.isDetached()) return undefined;
  const locator = directLocator(frame, selector);
  if (locator) return endProblem(locator, state, RECHECK_MS).catch(() => undefined);
  const found = await resolveTarget(frame, selector, 0);
  if (!found.found) return undefined;
  try {
    return await endProblem(found.target.element, state, RECHECK_MS).catch(() => undefined);
  } finally {
    release(found.target);
  }
}

/** Lets the page free the handle; nothing waits for that. */
function release(target: ResolvedTarget | undefined): void {
  void target?.element.dispose().catch(() => undefined);
}

/**
 * Why the action failed, in words: the element's state when there is one (a locator's element is
 * looked up once more: it may never have existed), else the browser's words (never a page's own).
 */
async function explainFailure(error: unknown, on: ResolvedTarget | { frame: Frame; selector: string } | undefined): Promise<ActionFailure> {
  if (error instanceof ActionFailure || !on) return asFailure(error);
  if ('element' in on) return explainRefusal(on.element, error);
  const found = await resolveTarget(on.frame, on.selector, 0);
  if (!found.found) return new ActionFailure(found.reason);
  try {
    return await explainRefusal(found.target.element, error);
  } finally {
    release(found.target);
  }
}

function asFailure(error: unknown): ActionFailure {
  if (error instanceof ActionFailure) return error;
  return new ActionFailure(browserFailure(error));
}
