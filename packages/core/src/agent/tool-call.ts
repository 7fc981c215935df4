// One tool call of an agent run, in the run's scope but bounded by toolTimeout: a child deadline of
// the run's (it never outlives the run), a record of its own (so the act/observe/extract calls
// inside report their tokens to the run), and a failure that is the model's to hear, not the run's end.
import { z } from 'zod';
import { briefly, isDeckhandError, pageScriptFailure } from '../errors.js';
import { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { Tool } from '../tools/tool.js';
import type { ReplayAction } from '../types.js';
import type { AgentUsage } from './agent-usage.js';

export type ToolOutcome = { ok: true; output: unknown } | { ok: false; error: string };

export interface ToolCallRequest {
  tool: Tool;
  input: unknown;
  scope: OperationScope;
  /** The run's clock: the call's own is a child of it. */
  run: Deadline;
  timeoutMs: number;
  usage: AgentUsage;
}

export async function runToolCall({ tool, input, scope, run, timeoutMs, usage }: ToolCallRequest): Promise<ToolOutcome> {
  const parsed = tool.input.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, error: `invalid arguments for ${tool.name}: ${z.prettifyError(parsed.error)}` };
  const deadline = new Deadline(run.signal, Math.min(timeoutMs, run.remaining(Infinity)), `tool ${tool.name}`);
  const record: ReplayAction = { method: tool.name, parameters: null, result: null, timestamp: Date.now() };
  try {
    return { ok: true, output: await deadline.race(tool.handle(parsed.data, { ...scope, deadline, signal: deadline.signal, record })) };
  } catch (thrown) {
    // The run ran out or was cancelled: that ends the run, not just this step.
    if (run.signal.aborted) throw thrown;
    const error = pageScriptFailure(thrown);
    if (isDeckhandError(error)) return { ok: false, error: error.message };
    scope.log({ category: 'agent', message: `tool ${tool.name} failed unexpectedly: ${briefly(error)}`, level: 2 });
    return { ok: false, error: `${tool.name} failed unexpectedly` };
  } finally {
    deadline.dispose();
    usage.addInner(record.tokenUsage);
  }
}
