// What an agent mode is to the loop (loop.ts): a driver that, told the step it is on, proposes and
// carries out that step's tool calls through the loop, and says whether the run goes on. It holds
// its own conversation; the step count, maxSteps, the stop reasons and the record are the loop's.
import type { UsageMeter } from '../models/usage.js';
import type { Deadline } from '../scope/deadline.js';
import type { Tool } from '../tools/tool.js';
import type { AgentEnd, AgentStep } from './agent-result.js';
import type { ToolOutcome } from './tool-call.js';

/** What the loop lends a driver for one step. */
export interface StepContext {
  /** The step's number in the run (1-based), as the log and the answer count it. */
  readonly step: number;
  /** The run's clock: a driver's own model call waits on it. */
  readonly run: Deadline;
  /** Where a driver's own model calls count their tokens. */
  readonly meter: UsageMeter;
  /** Runs one tool call under toolTimeout; its failure is the driver's to tell the model, not the run's end. */
  call(tool: Tool, input: unknown): Promise<TimedOutcome>;
  /** Adds one AgentAction to the run's answer, and its log line ("step n: " + line). */
  record(action: Omit<AgentStep, 'pageUrl'>, line: string): void;
  /** A log line of this step that is no AgentAction ("step n: " + line). */
  log(line: string): void;
}

export type TimedOutcome = ToolOutcome & { timeMs: number };

/**
 * `next`: the run goes on; `withdrawn`: the step did nothing and was replaced, so it does not count
 * (the offline agent reading a step another way); `end`: the run ends so.
 */
export type StepEnd = 'next' | 'withdrawn' | { end: AgentEnd };

export interface AgentDriver {
  step(context: StepContext): Promise<StepEnd>;
  /** Said after "Stopped after N step(s)" when maxSteps ends the run; absent: "without finishing the task". */
  unfinished?(): string;
  /** False while the driver replays a recorded run: its steps count, but maxSteps bound only new ones. */
  readonly bounded?: boolean;
}

/** How a driver's tools are handed to it: the agent cache's recorder wraps them, else they are as declared. */
export type ToolWrap = (tool: Tool) => Tool;
