// How an agent run ends and what it answers: AgentResultDataOutput, with the stop reason and step
// count in metadata and the run's whole usage.
import type { AgentAction, AgentResultDataOutput } from '../types.js';
import type { AgentUsage } from './agent-usage.js';

/** One step as the answer lists it: AgentAction allows extra properties, and these two say how the step went. */
export type AgentStep = AgentAction & { success: boolean; error?: string };

/** done: the agent said it finished (successfully or not); refused: it would not guess a step. */
export type StopReason = 'done' | 'max_steps' | 'timeout' | 'cancelled' | 'refused' | 'error';

export interface AgentEnd {
  reason: StopReason;
  /** Whether the task was carried out: only a run that reached done can say so. */
  success: boolean;
  message: string;
}

export function agentResult(end: AgentEnd, actions: AgentStep[], steps: number, usage: AgentUsage): AgentResultDataOutput {
  return {
    success: end.reason === 'done' && end.success,
    message: end.message,
    actions,
    completed: end.reason === 'done',
    metadata: { stopReason: end.reason, steps },
    usage: usage.output,
  };
}

/** A run's deadline passed (timeout) or its caller left (cancelled). */
export function interruptedEnd(timedOut: boolean, steps: number): AgentEnd {
  return timedOut
    ? { reason: 'timeout', success: false, message: `The run's deadline passed after ${steps} step(s)` }
    : { reason: 'cancelled', success: false, message: `The run was cancelled after ${steps} step(s)` };
}
