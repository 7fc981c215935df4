// How an agent run ends and what it answers: AgentResultDataOutput, with the stop reason and step
// count in metadata and the run's whole usage.
import type { AgentAction, AgentResultDataOutput } from '../types.js';
import type { AgentUsage } from './agent-usage.js';

/** One step as the answer lists it: AgentAction allows extra properties, and these two say how the step went. */
export type AgentStep = AgentAction & { success: boolean; error?: string };

/**
 * done: the agent said it finished (successfully or not); refused: it would not guess a step. A
 * cancelled run (the caller left) has no answer: nobody is there to read it; its replay record says so.
 */
export type StopReason = 'done' | 'max_steps' | 'timeout' | 'refused' | 'error';

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

/** The run's deadline passed. */
export function timeoutEnd(steps: number): AgentEnd {
  return { reason: 'timeout', success: false, message: `The run's deadline passed after ${steps} step(s)` };
}
