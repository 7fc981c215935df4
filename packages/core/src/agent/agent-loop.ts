// The agent loop with a language model: the model sees the task and the tools, calls them, hears each
// outcome (masked: no secret, no variable value), and goes on until it calls done, stops calling
// tools, or runs out of steps or time. Each tool call is one AgentAction and one log line as it happens.
import type { ModelMessage } from 'ai';
import { DeckhandError, isDeckhandError } from '../errors.js';
import type { ModelClient } from '../models/model-client.js';
import type { ToolCall } from '../models/tool-step.js';
import { variableInfo } from '../act/model-act.js';
import type { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { maskSecretsDeep } from '../secrets/mask-secrets.js';
import type { Screenshot } from '../tools/browser-tools.js';
import type { Tool } from '../tools/tool.js';
import { agentSystemPrompt, agentTaskPrompt } from './agent-prompt.js';
import { DONE_TOOL, agentTools } from './agent-registry.js';
import type { AgentPlan } from './agent-request.js';
import type { AgentEnd, AgentStep } from './agent-result.js';
import type { AgentUsage } from './agent-usage.js';
import { runToolCall, type ToolOutcome } from './tool-call.js';

export interface LoopState {
  actions: AgentStep[];
  steps: number;
  // Agent cache (cached-agent.ts): records the run's steps, and tells a model taking over from a replay what is done.
  recorder?: { wrap(tool: Tool): Tool };
  history?: string;
}

export async function modelLoop(
  scope: OperationScope,
  plan: AgentPlan,
  client: ModelClient,
  run: Deadline,
  usage: AgentUsage,
  state: LoopState,
): Promise<AgentEnd> {
  const tools = agentTools(plan.mode, { model: plan.executionModel, variables: plan.variables, frameId: plan.frameId }, plan.search).map((t) => state.recorder?.wrap(t) ?? t);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const system = agentSystemPrompt(plan.systemPrompt, variableInfo(plan.variables));
  const task = agentTaskPrompt(plan.instruction, scope.page.url());
  const messages: ModelMessage[] = [{ role: 'user', content: state.history ? `${task}\n\n${state.history}` : task }];

  while (state.steps < plan.maxSteps) {
    state.steps += 1;
    const reply = await client.toolStep({ system, messages, tools, signal: run.signal, usage: usage.meter });
    messages.push(...reply.messages);
    // A model that answers without calling a tool has nothing more to do: its text is the summary.
    if (reply.toolCalls.length === 0) return { reason: 'done', success: true, message: reply.text.trim() || 'The agent stopped without a summary' };
    const results: ModelMessage = { role: 'tool', content: [] };
    for (const call of reply.toolCalls) {
      const tool = byName.get(call.name);
      const started = Date.now();
      const outcome: ToolOutcome = tool
        ? await runToolCall(tool, call.input, scope, run, plan.toolTimeoutMs, usage)
        : { ok: false, error: `there is no tool named ${call.name}` };
      const action = agentAction(call, outcome, reply.text, Date.now() - started, scope.page.url());
      state.actions.push(action);
      scope.log({ category: 'agent', message: stepLine(state.steps, call, outcome), level: 1 });
      results.content.push({ type: 'tool-result', toolCallId: call.id, toolName: call.name, output: toModelOutput(outcome, scope.secrets) });
      if (call.name === DONE_TOOL && outcome.ok) {
        const done = outcome.output as { success: boolean; message: string };
        return { reason: 'done', success: done.success, message: done.message };
      }
    }
    messages.push(results);
  }
  return { reason: 'max_steps', success: false, message: `Stopped after ${plan.maxSteps} step(s) without finishing the task` };
}

function agentAction(call: ToolCall, outcome: ToolOutcome, reasoning: string, timeMs: number, pageUrl: string): AgentStep {
  const done = call.name === DONE_TOOL && outcome.ok ? (outcome.output as { success: boolean; message: string }) : undefined;
  return {
    type: call.name,
    ...(reasoning.trim() && { reasoning: reasoning.trim() }),
    action: JSON.stringify(call.input ?? {}),
    ...(typeof (call.input as { action?: unknown })?.action === 'string' && { instruction: (call.input as { action: string }).action }),
    taskCompleted: done?.success ?? false,
    // done's own success is the task's, not the step's.
    success: outcome.ok && (Boolean(done) || (outcome.output as { success?: boolean } | undefined)?.success !== false),
    ...(!outcome.ok && { error: outcome.error }),
    timeMs,
    pageUrl,
  };
}

/** The step's log line: tool, arguments (variables by name, as the model wrote them) and outcome. */
function stepLine(step: number, call: ToolCall, outcome: ToolOutcome): string {
  const result = outcome.ok ? summary(outcome.output) : `failed: ${outcome.error}`;
  return `step ${step}: ${call.name} ${JSON.stringify(call.input ?? {})} → ${result}`;
}

function summary(output: unknown): string {
  if (isScreenshot(output)) return 'screenshot taken';
  const text = JSON.stringify(output) ?? 'ok';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function toModelOutput(outcome: ToolOutcome, secrets: readonly string[]) {
  if (!outcome.ok) return { type: 'error-text' as const, value: maskSecretsDeep(outcome.error, secrets) };
  if (isScreenshot(outcome.output)) return { type: 'content' as const, value: [{ type: 'image-data' as const, ...outcome.output.image }] };
  return { type: 'json' as const, value: maskSecretsDeep(outcome.output ?? null, secrets) as never };
}

function isScreenshot(output: unknown): output is Screenshot {
  return typeof output === 'object' && output !== null && 'image' in output;
}

/** An error a model call ended the run with, as the run's end (cancellation is not one: it propagates). */
export function modelFailure(error: unknown): AgentEnd {
  if (isDeckhandError(error)) return { reason: 'error', success: false, message: error.message };
  throw error instanceof Error ? error : new DeckhandError('internal_error', String(error));
}
