// What the sessions tell an observer outside them (the server's /metrics): sessions starting and
// stopping, each operation's kind, outcome and times, each model call. Counts and times, never content.
import type { OnModelCall } from '../models/model-calls.js';
import type { EndReason } from './tombstones.js';

export interface OperationMeasure {
  /** The operation's method (navigate, act, observe, extract, agentExecute, or an MCP tool's name). */
  kind: string;
  /** `success`, `failure` (an answer that says it did not succeed), or the error's code. */
  outcome: string;
  /** From the call to the operation's turn in the session's queue. */
  queueWaitMs: number;
  /** From its turn to its answer. */
  durationMs: number;
}

export interface SessionTelemetry {
  onSessionStart?(): void;
  onSessionStop?(reason: EndReason, sessionId: string): void;
  onOperation?(measure: OperationMeasure): void;
  /** Every model call made through the AI SDK (see model-calls.ts for the calls it cannot see). */
  onModelCall?: OnModelCall;
}

/** What an operation's answer says of it: an answer with `success: false` did not do what was asked. */
export function outcomeOf(result: unknown): 'success' | 'failure' {
  return result !== null && typeof result === 'object' && (result as { success?: unknown }).success === false ? 'failure' : 'success';
}

/** Both observers, either of which may be absent. */
export function bothModelObservers(first?: OnModelCall, second?: OnModelCall): OnModelCall | undefined {
  if (!first || !second) return first ?? second;
  return (call) => {
    try {
      first(call);
    } finally {
      second(call);
    }
  };
}
