// An agent run with shouldCache and the server's cache in use (the session's enableCaching, no bypass
// header): it records its deterministic steps and, when it succeeds, stores them in its project's
// agent cache and hands the caller the entry. The same run is looked up first: a stored entry is replayed with no model call (HIT); a
// step that no longer fits hands the rest of the run to the model (or the offline agent) from that
// step, told what was already done, and the entry is rewritten from what then happened (MISS).
import type { CacheUse, OperationScope } from '../scope/operation-scope.js';
import type { Tool } from '../tools/tool.js';
import type { AgentCacheEntryOutput } from '../types.js';
import { AGENT_CACHE_VERSION, agentCacheFor, agentCacheKey, entryTexts, isActionStep, type AgentCache, type AgentCacheEntry, type AgentCacheStep } from './agent-cache-entry.js';
import type { AgentDriver, ToolWrap } from './agent-driver.js';
import { agentTools } from './agent-registry.js';
import type { AgentPlan } from './agent-request.js';
import type { AgentEnd } from './agent-result.js';
import type { AgentLoop } from './loop.js';
import { ReplayDriver } from './replay-driver.js';
import { splitSteps, urlOfStep } from './split-steps.js';
import { StepRecorder } from './step-recorder.js';
import { normalizeUrl } from '../cache/index.js';
import { containsValue } from '../cache/entry-store.js';
import { modelIdentity, resolveCallModel, type SessionModel } from '../models/resolve-model.js';

/** The driver of a plan's mode (the model's, or the offline one), its tools wrapped as given. */
export type DriverFor = (plan: AgentPlan, options: { wrap: ToolWrap; resumeNote?: string }) => AgentDriver;

export class CachedAgentRun {
  readonly #scope: OperationScope;
  readonly #plan: AgentPlan;
  readonly #modelIdentity: string;
  readonly #startUrl: string;
  readonly #key: string;
  /** The project's agent cache. */
  readonly #store: AgentCache;
  #recorder: StepRecorder;
  #status: 'HIT' | 'MISS' = 'MISS';
  /** The stored entry a replay could not get through: dropped if the fallback fails too. */
  #stale = false;
  #replayed = 0;
  /** A driver's tools, recorded by the recorder of the moment (a fallback's starts from the replayed steps). */
  readonly #wrap = (tool: Tool) => this.#recorder.wrap(tool);

  constructor(scope: OperationScope, cache: CacheUse, plan: AgentPlan, agentModelIdentity: string) {
    this.#scope = scope;
    this.#plan = plan;
    this.#modelIdentity = agentModelIdentity;
    this.#startUrl = normalizeUrl(scope.page.url());
    this.#key = agentCacheKey({
      project: cache.project,
      instruction: plan.instruction,
      startUrl: this.#startUrl,
      mode: plan.mode,
      modelIdentity: agentModelIdentity,
      executionModelIdentity: identityOf(plan.executionModel, scope.settings),
      systemPrompt: plan.systemPrompt,
      variableNames: Object.keys(plan.variables ?? {}),
      frameId: plan.frameId ?? undefined,
      toolNames: agentTools(plan.mode, {}, plan.search).map((t) => t.name),
    });
    this.#store = agentCacheFor(scope.config).of(cache.project, (message) => scope.log({ category: 'cache', message, level: 1 }));
    this.#recorder = new StepRecorder(plan.frameId);
  }

  /**
   * Runs the stored entry, if there is one, on the loop with no model; where it stops fitting (or
   * with no entry) the driver `driverFor` gives goes on, its tools recorded for the new entry.
   */
  async run(loop: AgentLoop, driverFor: DriverFor): Promise<AgentEnd> {
    const plan = this.#plan;
    const entry = await this.#store.get(this.#key);
    if (!entry) return loop.drive(driverFor(plan, { wrap: this.#wrap }));
    const replay = new ReplayDriver({ plan, entry, fallBack: (replayed, failure) => this.#fallBack(entry.steps.slice(0, replayed), failure, driverFor) });
    // A run that changed nothing on the page (it only read it) is an entry of no steps: it is done at once.
    const end = entry.steps.length > 0 ? await loop.drive(replay) : { reason: 'done' as const, ...entry.result };
    this.#replayed = replay.replayed;
    if (end.reason === 'done' && !replay.failure) {
      this.#status = 'HIT';
      this.#recorder = new StepRecorder(plan.frameId, entry.steps);
      this.#scope.log({ category: 'cache', message: `agent run replayed from the cache (${entry.steps.length} step(s))`, level: 1 });
    }
    return end;
  }

  /** The driver that goes on from a replay that stopped fitting after `done`, told what was done; or why none can. */
  #fallBack(done: AgentCacheStep[], failure: string, driverFor: DriverFor): AgentDriver | AgentEnd {
    const plan = this.#plan;
    this.#stale = true;
    this.#scope.log({ category: 'cache', message: `cached agent run stopped at ${failure}; handing the rest to the model`, level: 1 });
    this.#recorder = new StepRecorder(plan.frameId, done);
    if (plan.target.kind !== 'builtin') return driverFor(plan, { wrap: this.#wrap, resumeNote: resumeNote(done, failure) });
    const rest = offlineStepsLeft(plan.instruction, done);
    if (!rest) {
      return {
        reason: 'error',
        success: false,
        message: `The cached run no longer fits at step ${done.length + 1} (${failure}), and which steps of the instruction are left cannot be told; the entry is dropped: run the instruction again`,
      };
    }
    return driverFor({ ...plan, instruction: rest.join('; ') }, { wrap: this.#wrap });
  }

  /**
   * What the answer's metadata says of the cache, for those who cannot see the header (a stream's
   * headers are sent before the run): whether the run was replayed whole, and how many steps were.
   */
  get metadata(): { cacheHit: boolean; replayedSteps: number } {
    return { cacheHit: this.#status === 'HIT', replayedSteps: this.#replayed };
  }

  /**
   * After the run: a successful one is stored and handed to the caller;
   * a fallback that failed too drops the stale entry. An entry that would hold a variable's value is
   * neither stored nor returned. The status is told last, so no act inside the run can overwrite it.
   */
  async finish(end: AgentEnd): Promise<void> {
    const scope = this.#scope;
    scope.cache?.onStatus?.(this.#status);
    if (end.reason !== 'done' || !end.success) {
      if (this.#stale) await this.#store.delete(this.#key).catch(() => undefined);
      return;
    }
    if (this.#recorder.unrecordable) {
      scope.log({ category: 'cache', message: `agent run not cached: its ${this.#recorder.unrecordable} step cannot be replayed`, level: 1 });
      return;
    }
    const entry: AgentCacheEntry = {
      version: AGENT_CACHE_VERSION,
      kind: 'agent',
      instruction: this.#plan.instruction,
      startUrl: this.#startUrl,
      mode: this.#plan.mode,
      modelIdentity: this.#modelIdentity,
      steps: this.#recorder.steps,
      result: { success: end.success, message: end.message },
      createdAt: new Date().toISOString(),
    };
    if (containsValue(entryTexts(entry), [...scope.secrets])) {
      scope.log({ category: 'cache', message: 'agent run not cached: a step would contain a variable value', level: 1 });
      return;
    }
    if (this.#status === 'MISS') {
      try {
        await this.#store.set(this.#key, entry, [...scope.secrets]);
      } catch (error) {
        // A full disk or a read-only cache directory must not fail a run that worked.
        scope.log({ category: 'cache', message: `agent cache write failed: ${(error as Error).message}`, level: 0 });
      }
    }
    const output: AgentCacheEntryOutput = { cacheKey: this.#key, entry };
    scope.onCacheEntry?.(output);
  }
}

/** What a model taking over from a replay is told: the steps already done, and where the replay stopped. */
function resumeNote(done: AgentCacheStep[], failure: string): string {
  const lines = done.map((step, i) => `${i + 1}. ${isActionStep(step) ? `${step.tool}: ${step.instruction}` : `${step.tool} ${JSON.stringify(step.input)}`}`);
  return [
    'This task was started from a recording of an earlier run.',
    ...(lines.length > 0 ? ['These steps are already done on the page:', ...lines] : ['No step of it could be replayed.']),
    `The recording stopped at ${failure}.`,
    'Go on from there: look at the page as it is now and finish the task.',
  ].join('\n');
}

/** The execution model's identity (no key), the session's when the plan names none; one that does not resolve is keyed by that. */
function identityOf(model: AgentPlan['executionModel'], session: SessionModel): string {
  try {
    return modelIdentity(resolveCallModel(model, session));
  } catch {
    return 'unresolved';
  }
}

/**
 * The instruction's steps the offline agent still has to run after `replayed`, when each replayed
 * step is one step of the instruction in order (an act of its text, a goto of its URL). A step the
 * agent read another way (offline-readings.ts: "pick X from Y" ran as two acts) breaks that
 * correspondence: then undefined, since going on from a guessed step could redo or skip one.
 */
function offlineStepsLeft(instruction: string, replayed: AgentCacheStep[]): string[] | undefined {
  const texts = splitSteps(instruction).map((step) => step.text);
  const same = replayed.every((step, i) => {
    const text = texts[i];
    if (text === undefined) return false;
    return isActionStep(step) ? step.instruction === text : step.input.url !== undefined && step.input.url === urlOfStep(text);
  });
  return same ? texts.slice(replayed.length) : undefined;
}
