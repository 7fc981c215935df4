// The agent with no model key (builtin/offline): the instruction is cut into single steps, each is
// grounded and run by act with the offline matcher (or by the execution model, when one is given)
// on a fresh snapshot of the page as the steps before it left it, and the run stops at the first
// step that cannot be grounded or has no effect, saying which. It never guesses: a step the matcher
// does not recognise is a stop, not a try. A step that grounds nothing may be read another way
// (offline-readings.ts); a reading is tried only when the page had nothing for the one before it,
// so nothing was done by the failed one.
import { toolCatalog, toolNamed } from '../tools/catalog.js';
import type { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { ActResult } from '../types.js';
import type { LoopState } from './agent-loop.js';
import type { AgentPlan } from './agent-request.js';
import type { AgentEnd } from './agent-result.js';
import type { AgentUsage } from './agent-usage.js';
import { readingsOf } from './offline-readings.js';
import { dialogOpen } from './offline-dialog.js';
import { splitSteps, urlOfStep, type PlannedStep } from './split-steps.js';
import { runToolCall } from './tool-call.js';

export async function offlineRun(scope: OperationScope, plan: AgentPlan, run: Deadline, usage: AgentUsage, state: LoopState): Promise<AgentEnd> {
  const options = { model: plan.executionModel, variables: plan.variables, frameId: plan.frameId };
  const tools = toolCatalog(options).map((t) => state.recorder?.wrap(t) ?? t);
  const [navigateTool, actTool] = [toolNamed(tools, 'navigate')!, toolNamed(tools, 'act')!];
  const steps: Array<PlannedStep & { derived?: true }> = splitSteps(plan.instruction);
  const done: string[] = [];
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!;
    if (state.steps >= plan.maxSteps) {
      return { reason: 'max_steps', success: false, message: `Stopped after ${plan.maxSteps} step(s) of ${steps.length}; not done: ${steps.slice(index).map((s) => s.text).join('; ')}` };
    }
    state.steps += 1;
    const url = urlOfStep(step.text);
    const [tool, input] = url ? [navigateTool, { url }] : [actTool, { action: step.text }];
    const started = Date.now();
    const outcome = await runToolCall(tool, input, scope, run, plan.toolTimeoutMs, usage);
    const acted = outcome.ok ? (outcome.output as Partial<ActResult>) : undefined;
    const ok = outcome.ok && acted?.success !== false;
    const message = outcome.ok ? (acted?.message ?? `opened ${url}`) : outcome.error;
    // Not grounded (no action chosen): nothing happened, so another reading of the step may be tried.
    const grounded = !outcome.ok || (acted?.actions?.length ?? 0) > 0;
    if (!ok && !grounded) {
      const [reading, ...others] = await readingsOf(step, done.at(-1), { dialogOpen: () => dialogOpen(scope, plan.frameId) });
      if (reading) {
        scope.log({ category: 'agent', message: `step ${index + 1}: ${step.text} → nothing so named; read as: ${reading.join('; ')}`, level: 1 });
        state.steps -= 1;
        steps.splice(index, 1, ...reading.map((text, i) => ({ text, derived: true as const, ...(i === 0 && others.length > 0 && { or: others }) })));
        index -= 1;
        continue;
      }
    }
    state.actions.push({
      type: tool.name,
      instruction: step.text,
      action: acted?.actionDescription ?? step.text,
      reasoning: `step ${index + 1} of ${steps.length}`,
      taskCompleted: ok && index === steps.length - 1,
      success: ok,
      ...(!ok && { error: message }),
      timeMs: Date.now() - started,
      pageUrl: scope.page.url(),
    });
    scope.log({ category: 'agent', message: `step ${index + 1}: ${step.text} → ${ok ? 'done' : `failed: ${message}`}`, level: 1 });
    if (!ok) {
      // Not grounded is a refusal to guess; a chosen action that failed is an error.
      const before = done.length > 0 ? ` Done before it: ${done.join('; ')}.` : '';
      return {
        reason: grounded ? 'error' : 'refused',
        success: false,
        message: `Stopped at step ${index + 1} of ${steps.length} ("${step.text}"): ${message}.${before}`,
      };
    }
    done.push(step.text);
  }
  return { reason: 'done', success: true, message: `Done in ${steps.length} step(s): ${done.join('; ')}` };
}
