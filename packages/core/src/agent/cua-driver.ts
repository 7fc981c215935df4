// cua mode: the provider's own computer tool asks for actions, each runs through the agent's
// coordinate tools (cua-actions.ts) and is answered with a screenshot of the page after it. One step
// is one provider turn. The run ends when the model stops asking (its text is the summary), or at a
// call the provider wants a person to confirm: an unattended run does not confirm on anyone's behalf.
import { DeckhandError } from '../errors.js';
import type { ComputerCall, ComputerConversation } from '../models/computer-use.js';
import type { ModelClient } from '../models/model-client.js';
import { variableInfo } from '../act/model-act.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { maskSecretsDeep } from '../secrets/mask-secrets.js';
import type { Screenshot } from '../tools/browser-tools.js';
import { toolNamed } from '../tools/catalog.js';
import { viewportOf } from '../tools/coordinate-tools.js';
import type { Tool } from '../tools/tool.js';
import type { AgentDriver, StepContext, StepEnd, ToolWrap } from './agent-driver.js';
import { agentTaskPrompt } from './agent-prompt.js';
import { agentTools } from './agent-registry.js';
import type { AgentPlan } from './agent-request.js';
import { toolFor } from './cua-actions.js';
import { computerUseSystemPrompt } from './cua-prompt.js';

export interface CuaDriverOptions {
  scope: OperationScope;
  plan: AgentPlan;
  client: ModelClient;
  wrap: ToolWrap;
}

export class CuaDriver implements AgentDriver {
  readonly #options: CuaDriverOptions;
  readonly #tools: Tool[];
  readonly #screenshot: Tool;
  #conversation?: ComputerConversation;

  constructor(options: CuaDriverOptions) {
    const { plan, wrap } = options;
    this.#options = options;
    this.#tools = agentTools('cua', { variables: plan.variables, frameId: plan.frameId }).map(wrap);
    this.#screenshot = toolNamed(this.#tools, 'screenshot')!;
  }

  async step(context: StepContext): Promise<StepEnd> {
    const { scope, plan, client } = this.#options;
    const conversation = (this.#conversation ??= await open(scope, plan, client, context));
    const turn = await conversation.next(context.run.signal, context.meter);
    if (turn.calls.length === 0) return { end: { reason: 'done', success: true, message: turn.text.trim() || 'The agent stopped without a summary' } };
    for (const call of turn.calls) {
      if (call.needsConfirmation) {
        record(context, call, turn.text, { tool: call.name, ok: false, error: `needs confirmation: ${call.needsConfirmation}`, timeMs: 0 });
        const message = `Stopped before "${call.name}": the model's provider asks a person to confirm it (${call.needsConfirmation}), and this run has no one to ask`;
        return { end: { reason: 'refused', success: false, message } };
      }
      const error = await runCall(context, this.#tools, call, turn.text);
      const shot = await context.call(this.#screenshot, {});
      // Without a picture of the page the model cannot go on.
      if (!shot.ok) return { end: { reason: 'error', success: false, message: `Could not take the screenshot the model needs: ${shot.error}` } };
      conversation.answer(call, {
        screenshot: (shot.output as Screenshot).image.data,
        // A form sent by GET puts what was typed into the URL.
        url: maskSecretsDeep(scope.page.url(), scope.secrets),
        ...(error && { error: maskSecretsDeep(error, scope.secrets) }),
      });
    }
    return 'next';
  }
}

/** The provider's conversation, on the page's viewport as its display. */
async function open(scope: OperationScope, plan: AgentPlan, client: ModelClient, context: StepContext): Promise<ComputerConversation> {
  if (!client.computerUse) throw new DeckhandError('internal_error', `${client.identity} has no computer use`);
  return client.computerUse({
    system: computerUseSystemPrompt(plan.systemPrompt, variableInfo(plan.variables)),
    task: agentTaskPrompt(plan.instruction, scope.page.url()),
    display: await context.run.race(viewportOf(scope.page)),
  });
}

/** Runs one provider call's actions in order, stopping at the first that fails; returns its error. */
async function runCall(context: StepContext, tools: Tool[], call: ComputerCall, reasoning: string): Promise<string | undefined> {
  for (const action of call.actions) {
    const invocation = toolFor(action);
    if ('unsupported' in invocation) {
      record(context, call, reasoning, { tool: call.name, ok: false, error: invocation.unsupported, timeMs: 0 });
      return invocation.unsupported;
    }
    const outcome = await context.call(toolNamed(tools, invocation.tool)!, invocation.input);
    const error = outcome.ok ? undefined : outcome.error;
    record(context, call, reasoning, { tool: invocation.tool, input: invocation.input, ok: outcome.ok, error, timeMs: outcome.timeMs });
    if (error) return error;
  }
  return undefined;
}

interface ActionRecord {
  tool: string;
  input?: unknown;
  ok: boolean;
  error?: string;
  timeMs: number;
}

/** One AgentAction and one log line per page action (variables as the model wrote them: by name). */
function record(context: StepContext, call: ComputerCall, reasoning: string, step: ActionRecord): void {
  const input = JSON.stringify(step.input ?? call.input ?? {});
  context.record(
    {
      type: step.tool,
      ...(reasoning.trim() && { reasoning: reasoning.trim() }),
      action: input,
      instruction: call.name,
      taskCompleted: false,
      success: step.ok,
      ...(step.error && { error: step.error }),
      timeMs: step.timeMs,
    },
    `${call.name} → ${step.tool} ${input} → ${step.ok ? 'done' : `failed: ${step.error}`}`,
  );
}
