// dom and hybrid modes: a language model sees the task and the tools, calls them, hears each outcome
// (masked: no secret, no variable value), and ends the run by calling done or by answering without a
// tool call. One step is one model turn; each tool call in it is one AgentAction.
import type { ModelMessage } from 'ai';
import type { ModelClient } from '../models/model-client.js';
import type { ToolCall } from '../models/tool-step.js';
import { variableInfo } from '../act/model-act.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { maskSecretsDeep } from '../secrets/mask-secrets.js';
import type { Screenshot } from '../tools/browser-tools.js';
import type { Tool } from '../tools/tool.js';
import type { AgentDriver, StepContext, StepEnd, TimedOutcome, ToolWrap } from './agent-driver.js';
import { agentSystemPrompt, agentTaskPrompt } from './agent-prompt.js';
import { DONE_TOOL, agentTools } from './agent-registry.js';
import type { AgentPlan } from './agent-request.js';
import type { AgentStep } from './agent-result.js';
import type { ToolOutcome } from './tool-call.js';

export interface ModelDriverOptions {
  scope: OperationScope;
  plan: AgentPlan;
  client: ModelClient;
  wrap: ToolWrap;
  /** What a model taking over from a replay of the agent cache is told was already done. */
  resumeNote?: string;
}

export class ModelDriver implements AgentDriver {
  readonly #scope: OperationScope;
  readonly #client: ModelClient;
  readonly #tools: Tool[];
  readonly #system: string;
  /** The conversation so far, resent each turn. */
  readonly #messages: ModelMessage[];

  constructor({ scope, plan, client, wrap, resumeNote }: ModelDriverOptions) {
    this.#scope = scope;
    this.#client = client;
    this.#tools = agentTools(plan.mode, { model: plan.executionModel, variables: plan.variables, frameId: plan.frameId }, plan.search).map(wrap);
    this.#system = agentSystemPrompt(plan.systemPrompt, variableInfo(plan.variables));
    const task = agentTaskPrompt(plan.instruction, scope.page.url());
    this.#messages = [{ role: 'user', content: resumeNote ? `${task}\n\n${resumeNote}` : task }];
  }

  async step(context: StepContext): Promise<StepEnd> {
    const reply = await this.#client.toolStep({ system: this.#system, messages: this.#messages, tools: this.#tools, signal: context.run.signal, usage: context.meter });
    this.#messages.push(...reply.messages);
    // A model that answers without calling a tool has nothing more to do: its text is the summary.
    if (reply.toolCalls.length === 0) return { end: { reason: 'done', success: true, message: reply.text.trim() || 'The agent stopped without a summary' } };
    const results: ModelMessage = { role: 'tool', content: [] };
    for (const call of reply.toolCalls) {
      const tool = this.#tools.find((t) => t.name === call.name);
      const outcome: TimedOutcome = tool ? await context.call(tool, call.input) : { ok: false, error: `there is no tool named ${call.name}`, timeMs: 0 };
      context.record(agentAction(call, outcome, reply.text), stepLine(call, outcome));
      results.content.push({ type: 'tool-result', toolCallId: call.id, toolName: call.name, output: toModelOutput(outcome, this.#scope.secrets) });
      if (call.name === DONE_TOOL && outcome.ok) {
        const done = outcome.output as { success: boolean; message: string };
        return { end: { reason: 'done', success: done.success, message: done.message } };
      }
    }
    this.#messages.push(results);
    return 'next';
  }
}

function agentAction(call: ToolCall, outcome: TimedOutcome, reasoning: string): Omit<AgentStep, 'pageUrl'> {
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
    timeMs: outcome.timeMs,
  };
}

/** The step's log line: tool, arguments (variables by name, as the model wrote them) and outcome. */
function stepLine(call: ToolCall, outcome: ToolOutcome): string {
  const result = outcome.ok ? summary(outcome.output) : `failed: ${outcome.error}`;
  return `${call.name} ${JSON.stringify(call.input ?? {})} → ${result}`;
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
