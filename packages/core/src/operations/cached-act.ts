// act with an instruction through the act cache: a stored action is replayed without the model and
// counts only if the executor reports success; otherwise the model answers and the entry is replaced.
import type { Frame } from 'playwright-core';
import { ACT_CACHE_VERSION, actCacheKey, normalizeUrl, type ActCache, type ActCacheEntry } from '../cache/index.js';
import type { CoreConfig } from '../config.js';
import type { OperationScope } from '../session/operation-scope.js';
import type { ActRequest, ActResult, Action } from '../types.js';
import { actOnInstruction } from './model-act.js';
import type { ModelRun } from './model-run.js';
import { variableValues } from './page-snapshot.js';
import { runAction } from './run-action.js';

export interface CacheUse {
  cache: ActCache;
  onStatus?: (status: 'HIT' | 'MISS') => void;
}

/** A cached selector is expected on a settled page: a short look, so a stale one falls back quickly. */
const REPLAY_LOOKUP_MS = 1_500;

export async function cachedAct(
  scope: OperationScope,
  frame: Frame,
  request: ActRequest & { input: string },
  run: ModelRun,
  tuning: CoreConfig,
  { cache, onStatus }: CacheUse,
): Promise<ActResult> {
  const instruction = request.input;
  const variables = request.options?.variables;
  const url = frame.page().url();
  const key = actCacheKey({ instruction, url, options: request.options, modelIdentity: run.inference.identity, frameId: request.frameId });

  const entry = await cache.get(key);
  if (entry) {
    const replayTuning = { ...tuning, actionabilityTimeoutMs: Math.min(tuning.actionabilityTimeoutMs, REPLAY_LOOKUP_MS) };
    const replayed = await replay(scope, frame, entry.actions, request, run, replayTuning);
    if (replayed.success) {
      scope.log({ category: 'cache', message: 'act answered from the cache', level: 1 });
      onStatus?.('HIT');
      return replayed;
    }
    scope.log({ category: 'cache', message: `cached action no longer works (${replayed.message}); asking the model`, level: 1 });
  }

  const result = await actOnInstruction(scope, frame, { instruction, variables }, run, tuning);
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
        createdAt: new Date().toISOString(),
      };
      if (!(await cache.set(key, stored, variableValues(variables)))) {
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

/** Runs the cached steps in order; the first failure ends the replay. */
async function replay(
  scope: OperationScope,
  frame: Frame,
  actions: Action[],
  request: ActRequest,
  run: ModelRun,
  tuning: CoreConfig,
): Promise<ActResult> {
  const done: Action[] = [];
  let last: ActResult = { success: false, message: 'the cache entry has no actions', actionDescription: request.input as string, actions: [] };
  for (const action of actions) {
    last = await runAction(scope, frame.page(), action, request.options?.variables, run, tuning);
    done.push(action);
    if (!last.success) break;
  }
  return { ...last, actions: done };
}
