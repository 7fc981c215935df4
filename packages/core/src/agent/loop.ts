// The one agent loop: it counts the steps, holds the run to maxSteps, keeps the record (the answer's
// AgentActions and the step log) and decides how the run stopped; a mode's driver (agent-driver.ts)
// only proposes and carries out each step through what the loop lends it. The agent cache drives one
// loop with two drivers in turn (a replay, then the model), so the count and the record run on.
import { DeckhandError, isDeckhandError } from '../errors.js';
import type { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { AgentDriver, StepContext } from './agent-driver.js';
import { timeoutEnd, type AgentEnd, type AgentStep } from './agent-result.js';
import type { AgentUsage } from './agent-usage.js';
import { runToolCall } from './tool-call.js';

export interface AgentLoopOptions {
  scope: OperationScope;
  /** The run's clock, ending a little before the operation's so a run out of time still answers. */
  run: Deadline;
  usage: AgentUsage;
  maxSteps: number;
  toolTimeoutMs: number;
}

export class AgentLoop {
  readonly #options: AgentLoopOptions;
  #steps = 0;
  readonly #actions: AgentStep[] = [];

  constructor(options: AgentLoopOptions) {
    this.#options = options;
  }

  /** Steps taken so far (replayed ones included). */
  get steps(): number {
    return this.#steps;
  }

  /** The run's AgentActions so far. */
  get actions(): readonly AgentStep[] {
    return this.#actions;
  }

  /**
   * Runs the driver's steps until it ends the run, maxSteps is reached (counting the steps of any
   * driver before it) or the run's deadline passes; a model failure ends it as an error. A caller
   * that went away is no end: that propagates, since nobody is left to answer.
   */
  async drive(driver: AgentDriver): Promise<AgentEnd> {
    const { scope, run, maxSteps } = this.#options;
    try {
      for (;;) {
        if (this.#steps >= maxSteps && driver.bounded !== false) {
          return { reason: 'max_steps', success: false, message: `Stopped after ${maxSteps} step(s) ${driver.unfinished?.() ?? 'without finishing the task'}` };
        }
        this.#steps += 1;
        const next = await driver.step(this.#context(this.#steps));
        if (next === 'withdrawn') this.#steps -= 1;
        else if (next !== 'next') return next.end;
      }
    } catch (error) {
      if (scope.signal.aborted) throw error;
      if (run.signal.aborted) return timeoutEnd(this.#steps);
      if (isDeckhandError(error)) return { reason: 'error', success: false, message: error.message };
      throw error instanceof Error ? error : new DeckhandError('internal_error', String(error));
    }
  }

  #context(step: number): StepContext {
    const { scope, run, usage, toolTimeoutMs } = this.#options;
    const log = (line: string) => scope.log({ category: 'agent', message: `step ${step}: ${line}`, level: 1 });
    return {
      step,
      run,
      meter: usage.meter,
      call: async (tool, input) => {
        const started = Date.now();
        const outcome = await runToolCall({ tool, input, scope, run, timeoutMs: toolTimeoutMs, usage });
        return { ...outcome, timeMs: Date.now() - started };
      },
      record: (action, line) => {
        this.#actions.push({ ...action, pageUrl: scope.page.url() });
        log(line);
      },
      log,
    };
  }
}
