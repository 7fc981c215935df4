// The agent with no model key (builtin/offline): the instruction is cut into single steps, each is
// grounded and run by act with the offline matcher (or by the execution model, when one is given)
// on a fresh snapshot of the page as the steps before it left it, and the run stops at the first
// step that cannot be grounded or has no effect, saying which. It never guesses: a step the matcher
// does not recognise is a stop, not a try. A step that grounds nothing may be read another way
// (offline-readings.ts); a reading is tried only when the page had nothing for the one before it,
// so nothing was done by the failed one.
import { toolCatalog, toolNamed } from '../tools/catalog.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { ActResult } from '../types.js';
import type { AgentDriver, StepContext, StepEnd, ToolWrap } from './agent-driver.js';
import type { AgentPlan } from './agent-request.js';
import { readingsOf } from './offline-readings.js';
import { dialogOpen } from './offline-dialog.js';
import { splitSteps, urlOfStep, type PlannedStep } from './split-steps.js';

export interface OfflineDriverOptions {
  scope: OperationScope;
  plan: AgentPlan;
  wrap: ToolWrap;
}

export function offlineDriver({ scope, plan, wrap }: OfflineDriverOptions): AgentDriver {
  const tools = toolCatalog({ model: plan.executionModel, variables: plan.variables, frameId: plan.frameId }).map(wrap);
  const [navigateTool, actTool] = [toolNamed(tools, 'navigate')!, toolNamed(tools, 'act')!];
  const steps: Array<PlannedStep & { derived?: true }> = splitSteps(plan.instruction);
  const done: string[] = [];
  const probe = { dialogOpen: () => dialogOpen(scope, plan.frameId) };

  /** Runs the instruction's next step (steps[done.length]). */
  async function runStep(context: StepContext): Promise<StepEnd> {
    const index = done.length;
    const step = steps[index];
    // "." or "then" alone: nothing to do is no success.
    if (!step) return { end: { reason: 'refused', success: false, message: 'The instruction names no step to take' } };
    const url = urlOfStep(step.text);
    const [tool, input] = url ? [navigateTool, { url }] : [actTool, { action: step.text }];
    const outcome = await context.call(tool, input);
    const acted = outcome.ok ? (outcome.output as Partial<ActResult>) : undefined;
    const ok = outcome.ok && acted?.success !== false;
    const message = outcome.ok ? (acted?.message ?? `opened ${url}`) : outcome.error;
    // Not grounded (no action chosen): nothing happened, so another reading of the step may be tried.
    const grounded = !outcome.ok || (acted?.actions?.length ?? 0) > 0;
    if (!ok && !grounded) {
      const [reading, ...others] = await readingsOf(step, done.at(-1), probe);
      if (reading) {
        context.log(`${step.text} → nothing so named; read as: ${reading.join('; ')}`);
        steps.splice(index, 1, ...reading.map((text, i) => ({ text, derived: true as const, ...(i === 0 && others.length > 0 && { or: others }) })));
        return 'withdrawn';
      }
    }
    context.record(
      {
        type: tool.name,
        instruction: step.text,
        action: acted?.actionDescription ?? step.text,
        reasoning: `step ${index + 1} of ${steps.length}`,
        taskCompleted: ok && index === steps.length - 1,
        success: ok,
        ...(!ok && { error: message }),
        timeMs: outcome.timeMs,
      },
      `${step.text} → ${ok ? 'done' : `failed: ${message}`}`,
    );
    if (!ok) {
      // Not grounded is a refusal to guess; a chosen action that failed is an error.
      const before = done.length > 0 ? ` Done before it: ${done.join('; ')}.` : '';
      return { end: { reason: grounded ? 'error' : 'refused', success: false, message: `Stopped at step ${index + 1} of ${steps.length} ("${step.text}"): ${message}.${before}` } };
    }
    done.push(step.text);
    return done.length === steps.length ? { end: { reason: 'done', success: true, message: `Done in ${steps.length} step(s): ${done.join('; ')}` } } : 'next';
  }

  return {
    step: runStep,
    unfinished: () => `of ${steps.length}; not done: ${steps.slice(done.length).map((s) => s.text).join('; ')}`,
  };
}
