// Replays an agent cache entry's steps with no model, one step of the loop each: an Action step
// checks, before each of its Actions, that the selector still names the element it named when
// recorded (same role and name), then runs the Action; an input step runs its tool again (found by
// its name, or a name it had). The first step that no longer fits hands the rest of the run to the
// driver `fallBack` gives (the model's, or the offline one), on the same loop, so the count runs on.
import { z } from 'zod';
import { performAction } from '../act/perform-action.js';
import { REPLAY_LOOKUP_MS, targetChange } from '../act/cached-act.js';
import { toolCatalog, toolNamed } from '../tools/catalog.js';
import { defineTool, type Tool } from '../tools/tool.js';
import type { AgentDriver, StepContext, StepEnd } from './agent-driver.js';
import { isActionStep, type ActionStep, type AgentCacheEntry } from './agent-cache-entry.js';
import type { AgentPlan } from './agent-request.js';
import type { AgentEnd } from './agent-result.js';

export interface ReplayDriverOptions {
  plan: AgentPlan;
  entry: AgentCacheEntry;
  /** Who goes on after `replayed` steps, told why the next did not fit; or how the run ends instead. */
  fallBack(replayed: number, failure: string): AgentDriver | AgentEnd;
}

export class ReplayDriver implements AgentDriver {
  readonly #entry: AgentCacheEntry;
  readonly #fallBack: ReplayDriverOptions['fallBack'];
  readonly #inputTools: Tool[];
  readonly #actionStep: Tool;
  #replayed = 0;
  #failure?: string;
  /** The driver that took over after the step that did not fit. */
  #next?: AgentDriver;

  constructor({ plan, entry, fallBack }: ReplayDriverOptions) {
    this.#entry = entry;
    this.#fallBack = fallBack;
    this.#inputTools = toolCatalog({ variables: plan.variables, frameId: plan.frameId }).filter((t) => t.record === 'input');
    this.#actionStep = replayActionTool(plan);
  }

  /** How many steps ran as recorded. */
  get replayed(): number {
    return this.#replayed;
  }

  /** Why a step could not run, once one could not. */
  get failure(): string | undefined {
    return this.#failure;
  }

  // The recording was made within the run's bound; the bound holds the steps after it.
  get bounded(): boolean {
    return this.#next !== undefined;
  }

  unfinished(): string {
    return this.#next?.unfinished?.() ?? 'without finishing the task';
  }

  async step(context: StepContext): Promise<StepEnd> {
    if (this.#next) return this.#next.step(context);
    const { steps, result } = this.#entry;
    const step = steps[this.#replayed]!;
    const byAction = isActionStep(step);
    const tool = byAction ? this.#actionStep : toolNamed(this.#inputTools, step.tool);
    // A file edited by hand may name a tool that does not exist: that step no longer fits.
    const outcome = tool ? await context.call(tool, byAction ? step : step.input) : { ok: false as const, error: `there is no tool named ${String(step.tool)}`, timeMs: 0 };
    const failed = outcome.ok ? (outcome.output as { failure?: string }).failure : outcome.error;
    const shown = byAction ? step.instruction : `${step.tool} ${JSON.stringify(step.input)}`;
    const last = !failed && this.#replayed === steps.length - 1;
    context.record(
      {
        type: byAction ? step.tool : (tool?.name ?? step.tool),
        reasoning: 'replayed from the agent cache',
        action: JSON.stringify(byAction ? { action: step.instruction } : step.input),
        ...(byAction && { instruction: step.instruction }),
        // The whole recording replayed: the task is as done as it was then.
        taskCompleted: last && result.success,
        success: !failed,
        ...(failed && { error: failed }),
        timeMs: outcome.timeMs,
      },
      `${shown} (cached) → ${failed ? `failed: ${failed}` : 'done'}`,
    );
    if (failed) return this.#handOver(`step ${this.#replayed + 1} (${shown}) no longer fits: ${failed}`);
    this.#replayed += 1;
    return last ? { end: { reason: 'done', ...result } } : 'next';
  }

  #handOver(failure: string): StepEnd {
    this.#failure = failure;
    const after = this.#fallBack(this.#replayed, failure);
    if ('reason' in after) return { end: after };
    this.#next = after;
    return 'next';
  }
}

/** One recorded Action step as a tool, so it runs under toolTimeout like any other call. */
function replayActionTool(plan: AgentPlan) {
  return defineTool({
    name: 'replay',
    description: 'Replays a recorded step of Actions.',
    input: z.custom<ActionStep>(),
    readOnly: false,
    capability: 'agent',
    handle: async ({ actions, targets }, scope): Promise<{ failure?: string }> => {
      const frame = await scope.frame(plan.frameId);
      for (const [i, action] of actions.entries()) {
        const changed = await targetChange(scope, frame.page(), action, targets[i] ?? null);
        if (changed) return { failure: changed };
        const result = await performAction(scope, { action, variables: plan.variables, frame: frame.page().mainFrame(), lookupMs: REPLAY_LOOKUP_MS });
        if (!result.success) return { failure: result.message };
      }
      return {};
    },
  });
}
