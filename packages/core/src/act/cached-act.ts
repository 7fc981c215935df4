// act with an instruction through the act cache: a stored action is replayed without the model and
// counts only if its selector still names the same element and the executor reports success;
// otherwise the model answers and the entry is replaced.
import type { Page } from 'playwright-core';
import { ACT_CACHE_VERSION, actCacheKey, normalizeUrl, type ActCacheEntry, type CachedTarget } from '../cache/index.js';
import type { CacheUse, OperationScope } from '../scope/operation-scope.js';
import type { ActRequest, ActResult, Action } from '../types.js';
import { actOnInstruction } from './model-act.js';
import type { ModelRun } from '../inference/model-run.js';
import { snapshotOf } from '../snapshot/page-snapshot.js';
import { performAction, undoneStep, type EndCheck } from './perform-action.js';
import { redactVariables } from './variables.js';
import { startOf, type FrameTarget } from './frame-target.js';

/** A cached selector is expected on a settled page: a short look, so a stale one falls back quickly. */
export const REPLAY_LOOKUP_MS = 1_500;

export async function cachedAct(
  scope: OperationScope,
  at: FrameTarget,
  request: ActRequest & { input: string },
  run: ModelRun,
  { cache: caches, project, onStatus }: CacheUse,
): Promise<ActResult> {
  const instruction = request.input;
  const variables = request.options?.variables;
  const url = at.frame.page().url();
  const key = actCacheKey({ project, instruction, url, options: request.options, modelIdentity: run.inference.identity, frameId: at.id });
  const cache = caches.of(project, (message) => scope.log({ category: 'cache', message, level: 1 }));

  const entry = await cache.get(key);
  if (entry) {
    const replayed = await replay(scope, at, entry, request);
    if (replayed.success) {
      scope.log({ category: 'cache', message: 'act answered from the cache', level: 1 });
      onStatus?.('HIT');
      return replayed;
    }
    scope.log({ category: 'cache', message: `cached action no longer works (${replayed.message}); asking the model`, level: 1 });
  }

  const targets: Array<CachedTarget | null> = [];
  const result = await actOnInstruction(scope, at, { instruction, variables }, run, (target) => targets.push(target));
  onStatus?.('MISS');
  try {
    if (result.success) {
      const stored: ActCacheEntry = {
        version: ACT_CACHE_VERSION,
        instruction,
        url: normalizeUrl(url),
        modelIdentity: run.inference.identity,
        // A backend node id names one document's node; a later page has other ids.
        actions: result.actions.map(({ backendNodeId: _id, ...action }) => action),
        targets,
        createdAt: new Date().toISOString(),
      };
      if (!(await cache.set(key, stored, [...scope.secrets]))) {
        scope.log({ category: 'cache', message: 'not cached: the action would contain a variable value', level: 1 });
      }
    } else if (entry) {
      await cache.delete(key);
    }
  } catch (error) {
    // A full disk or a read-only cache directory must not fail an act that worked.
    scope.log({ category: 'cache', message: `act cache write failed: ${(error as Error).message}`, level: 0 });
  }
  return result;
}

/**
 * Runs the cached steps in order; the first failure ends the replay. Before each step its selector
 * must still name the element it named when it was resolved (same role and accessible name).
 */
async function replay(
  scope: OperationScope,
  at: FrameTarget,
  { actions, targets }: ActCacheEntry,
  request: ActRequest,
): Promise<ActResult> {
  const done: Action[] = [];
  const failed = (message: string): ActResult => ({ success: false, message, actionDescription: request.input as string, actions: done });
  let last = failed('the cache entry has no actions');
  const endChecks: EndCheck[] = [];
  for (const [i, action] of actions.entries()) {
    const changed = await targetChange(scope, at.frame.page(), action, targets[i] ?? null);
    if (changed) return failed(changed);
    last = await performAction(scope, { action, variables: request.options?.variables, ...(await startOf(at, action)), lookupMs: REPLAY_LOOKUP_MS, endChecks, pinned: true });
    done.push(action);
    if (!last.success) break;
  }
  // As a fresh act: every step must still hold after the last one.
  const undone = last.success ? await undoneStep(endChecks) : undefined;
  if (undone) return failed(redactVariables(`${undone.description} did not hold after the last step: ${undone.undone}`, request.options?.variables));
  return { ...last, actions: done };
}

/** Why the step's selector no longer names the cached target, or undefined when it still does. */
export async function targetChange(scope: OperationScope, page: Page, action: Action, target: CachedTarget | null): Promise<string | undefined> {
  if (!target || !action.selector) return undefined;
  const xpath = action.selector.replace(/^xpath=/, '');
  let now: CachedTarget | undefined;
  try {
    const scoped = await snapshotOf(scope, page.mainFrame(), { selector: action.selector });
    now = [...scoped.elements.values()].find((element) => element.xpath === xpath);
  } catch (error) {
    return (error as Error).message;
  }
  if (now && now.role === target.role && now.name === target.name) return undefined;
  return `the selector now names ${now ? describe(now) : 'an element that is not actionable'}, not ${describe(target)}`;
}

const describe = ({ role, name }: CachedTarget) => `${role} "${name}"`;
