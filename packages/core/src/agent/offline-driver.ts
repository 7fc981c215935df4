// The agent with no model key (builtin/offline): the instruction is cut into single steps, each is
// grounded and run by act with the offline matcher (or by the execution model, when one is given)
// on a fresh snapshot of the page as the steps before it left it, and the run stops at the first
// step that cannot be grounded or has no effect, saying which. It never guesses: a step the matcher
// does not recognise is a stop, not a try. A step that grounds nothing may be read another way
// (offline-readings.ts); a reading is tried only when the page had nothing for the one before it,
// so nothing was done by the failed one.
import { toolCatalog, toolNamed } from '../tools/catalog.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { Tool } from '../tools/tool.js';
import type { ActResult } from '../types.js';
import type { AgentDriver, StepContext, StepEnd, ToolWrap } from './agent-driver.js';
import type { AgentPlan } from './agent-request.js';
import { confirmIn, readingsOf, type PageProbe } from './offline-readings.js';
import { openDialog } from './offline-dialog.js';
import { splitSteps, urlOfStep, type PlannedStep } from './split-steps.js';

export interface OfflineDriverOptions {
  scope: OperationScope;
  plan: AgentPlan;
  wrap: ToolWrap;
}

export class OfflineDriver implements AgentDriver {
  readonly #navigate: Tool;
  readonly #act: Tool;
  readonly #steps: Array<PlannedStep & { derived?: true }>;
  /** The steps done, in order: the next to run is #steps[#done.length]. */
  readonly #done: string[] = [];
  readonly #probe: PageProbe;

  constructor({ scope, plan, wrap }: OfflineDriverOptions) {
    const tools = toolCatalog({ model: plan.executionModel, variables: plan.variables, frameId: plan.frameId }).map(wrap);
    this.#navigate = toolNamed(tools, 'navigate')!;
    this.#act = toolNamed(tools, 'act')!;
    this.#steps = splitSteps(plan.instruction);
    this.#probe = { dialog: () => openDialog(scope, plan.frameId) };
  }

  unfinished(): string {
    return `of ${this.#steps.length}; not done: ${this.#steps.slice(this.#done.length).map((s) => s.text).join('; ')}`;
  }

  async step(context: StepContext): Promise<StepEnd> {
    const [steps, done] = [this.#steps, this.#done];
    const index = done.length;
    const step = steps[index];
    // "." or "then" alone: nothing to do is no success.
    if (!step) return { end: { reason: 'refused', success: false, message: 'The instruction names no step to take' } };
    const confirm = step.derived ? undefined : await confirmIn(step.text, done.at(-1), this.#probe);
    if (confirm && 'refused' in confirm) {
      return { end: { reason: 'refused', success: false, message: `Stopped at step ${index + 1} of ${steps.length} ("${step.text}"): ${confirm.refused}. Done before it: ${done.join('; ')}.` } };
    }
    const url = urlOfStep(step.text);
    const [tool, input] = url ? [this.#navigate, { url }] : [this.#act, { action: confirm?.run ?? step.text }];
    const outcome = await context.call(tool, input);
    const acted = outcome.ok ? (outcome.output as Partial<ActResult>) : undefined;
    const ok = outcome.ok && acted?.success !== false;
    const message = outcome.ok ? (acted?.message ?? `opened ${url}`) : outcome.error;
    // Not grounded (no action chosen): nothing happened, so another reading of the step may be tried.
    const grounded = !outcome.ok || (acted?.actions?.length ?? 0) > 0;
    if (!ok && !grounded && (await this.#readAnotherWay(context, step))) return 'withdrawn';
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

  /** Puts the first other reading of a step that grounded nothing in its place; false when it has none. */
  async #readAnotherWay(context: StepContext, step: PlannedStep & { derived?: true }): Promise<boolean> {
    const [reading, ...others] = await readingsOf(step, this.#done.at(-1), this.#probe);
    if (!reading) return false;
    context.log(`${step.text} → nothing so named; read as: ${reading.join('; ')}`);
    const readSteps = reading.map((text, i) => ({ text, derived: true as const, ...(i === 0 && others.length > 0 && { or: others }) }));
    this.#steps.splice(this.#done.length, 1, ...readSteps);
    return true;
  }
}
