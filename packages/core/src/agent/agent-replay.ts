// Replays an agent cache entry's steps with no model: each Action step checks, before each of its
// Actions, that the selector still names the element it named when recorded (same role and name),
// then runs the Action; an input step runs its tool again (found by its name, or a name it had). Every step is one AgentAction and
// one log line, bounded by toolTimeout like a model's tool call. The first step that no longer fits
// stops the replay, and says why, so the run can go on from there.
import { z } from 'zod';
import { performAction } from '../act/perform-action.js';
import { REPLAY_LOOKUP_MS, targetChange } from '../act/cached-act.js';
import type { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { toolCatalog, toolNamed } from '../tools/catalog.js';
import { defineTool } from '../tools/tool.js';
import { isActionStep, type ActionStep, type AgentCacheStep } from './agent-cache-entry.js';
import type { LoopState } from './agent-loop.js';
import type { AgentPlan } from './agent-request.js';
import type { AgentUsage } from './agent-usage.js';
import { runToolCall } from './tool-call.js';

export interface ReplayOutcome {
  /** How many steps ran as recorded. */
  replayed: number;
  /** Why the next step could not run, when one could not. */
  failure?: string;
}

export async function replaySteps(
  scope: OperationScope,
  plan: AgentPlan,
  steps: AgentCacheStep[],
  run: Deadline,
  usage: AgentUsage,
  state: LoopState,
): Promise<ReplayOutcome> {
  const inputTools = toolCatalog({ variables: plan.variables, frameId: plan.frameId }).filter((t) => t.record === 'input');
  const actionStep = replayActionTool(plan);
  for (const [index, step] of steps.entries()) {
    state.steps += 1;
    const byAction = isActionStep(step);
    const tool = byAction ? actionStep : toolNamed(inputTools, step.tool);
    const started = Date.now();
    // A file edited by hand may name a tool that does not exist: that step no longer fits.
    const outcome = tool
      ? await runToolCall(tool, byAction ? step : step.input, scope, run, plan.toolTimeoutMs, usage)
      : { ok: false as const, error: `there is no tool named ${String(step.tool)}` };
    const failure = outcome.ok ? (outcome.output as { failure?: string }).failure : outcome.error;
    const shown = byAction ? step.instruction : `${step.tool} ${JSON.stringify(step.input)}`;
    state.actions.push({
      type: byAction ? step.tool : (tool?.name ?? step.tool),
      reasoning: 'replayed from the agent cache',
      action: JSON.stringify(byAction ? { action: step.instruction } : step.input),
      ...(byAction && { instruction: step.instruction }),
      taskCompleted: false,
      success: !failure,
      ...(failure && { error: failure }),
      timeMs: Date.now() - started,
      pageUrl: scope.page.url(),
    });
    scope.log({ category: 'agent', message: `step ${state.steps}: ${shown} (cached) → ${failure ? `failed: ${failure}` : 'done'}`, level: 1 });
    if (failure) return { replayed: index, failure: `step ${index + 1} (${shown}) no longer fits: ${failure}` };
  }
  return { replayed: steps.length };
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
