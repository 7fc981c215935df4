// Replays an agent cache entry's steps with no model, one step of the loop each: an Action step
// checks, before each of its Actions, that the selector still names the element it named when
// recorded (same role and name), then runs the Action; an input step runs its tool again (found by
// its name, or a name it had). The first step that no longer fits hands the rest of the run to the
// driver `fallBack` gives (the model's, or the offline one), on the same loop, so the count runs on.
import { z } from 'zod';
import { performAction } from '../actions/perform-action.js';
import { REPLAY_LOOKUP_MS, targetChange } from '../operations/cached-act.js';
import { toolCatalog, toolNamed } from '../tools/catalog.js';
import { defineTool } from '../tools/tool.js';
import type { AgentDriver, StepEnd } from './agent-driver.js';
import { isActionStep, type ActionStep, type AgentCacheEntry } from './agent-cache-entry.js';
import type { AgentPlan } from './agent-request.js';
import type { AgentEnd } from './agent-result.js';

export interface ReplayDriverOptions {
  plan: AgentPlan;
  entry: AgentCacheEntry;
  /** Who goes on after `replayed` steps, told why the next did not fit; or how the run ends instead. */
  fallBack(replayed: number, failure: string): AgentDriver | AgentEnd;
}

export interface ReplayDriver extends AgentDriver {
  /** How many steps ran as recorded. */
  readonly replayed: number;
  /** Why a step could not run, once one could not. */
  readonly failure?: string;
}

export function replayDriver({ plan, entry, fallBack }: ReplayDriverOptions): ReplayDriver {
  const inputTools = toolCatalog({ variables: plan.variables, frameId: plan.frameId }).filter((t) => t.record === 'input');
  const actionStep = replayActionTool(plan);
  let replayed = 0;
  let failure: string | undefined;
  let next: AgentDriver | undefined;

  return {
    get replayed() {
      return replayed;
    },
    get failure() {
      return failure;
    },
    // The recording was made within the run's bound; the bound holds the steps after it.
    get bounded() {
      return next !== undefined;
    },
    unfinished: () => next?.unfinished?.() ?? 'without finishing the task',
    async step(context): Promise<StepEnd> {
      if (next) return next.step(context);
      const step = entry.steps[replayed]!;
      const byAction = isActionStep(step);
      const tool = byAction ? actionStep : toolNamed(inputTools, step.tool);
      // A file edited by hand may name a tool that does not exist: that step no longer fits.
      const outcome = tool ? await context.call(tool, byAction ? step : step.input) : { ok: false as const, error: `there is no tool named ${String(step.tool)}`, timeMs: 0 };
      const failed = outcome.ok ? (outcome.output as { failure?: string }).failure : outcome.error;
      const shown = byAction ? step.instruction : `${step.tool} ${JSON.stringify(step.input)}`;
      const last = !failed && replayed === entry.steps.length - 1;
      context.record(
        {
          type: byAction ? step.tool : (tool?.name ?? step.tool),
          reasoning: 'replayed from the agent cache',
          action: JSON.stringify(byAction ? { action: step.instruction } : step.input),
          ...(byAction && { instruction: step.instruction }),
          // The whole recording replayed: the task is as done as it was then.
          taskCompleted: last && entry.result.success,
          success: !failed,
          ...(failed && { error: failed }),
          timeMs: outcome.timeMs,
        },
        `${shown} (cached) → ${failed ? `failed: ${failed}` : 'done'}`,
      );
      if (failed) {
        failure = `step ${replayed + 1} (${shown}) no longer fits: ${failed}`;
        const after = fallBack(replayed, failure);
        if ('reason' in after) return { end: after };
        next = after;
        return 'next';
      }
      replayed += 1;
      return last ? { end: { reason: 'done', ...entry.result } } : 'next';
    },
  };
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
