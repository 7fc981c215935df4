// The agent loop in cua mode: the provider's own computer tool asks for actions, each runs through
// the agent's coordinate tools (cua-actions.ts) and is answered with a screenshot of the page after
// it. The run ends when the model stops asking (its text is the summary), at maxSteps, or at a call
// the provider wants a person to confirm: an unattended run does not confirm on anyone's behalf.
import { DeckhandError } from '../errors.js';
import type { ComputerCall } from '../models/computer-use.js';
import type { ModelClient } from '../models/model-client.js';
import { variableInfo } from '../act/model-act.js';
import type { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { maskSecretsDeep } from '../secrets/mask-secrets.js';
import type { Screenshot } from '../tools/browser-tools.js';
import { viewportOf } from '../tools/coordinate-tools.js';
import type { Tool } from '../tools/tool.js';
import type { LoopState } from './agent-loop.js';
import { agentTaskPrompt } from './agent-prompt.js';
import { agentTools } from './agent-registry.js';
import type { AgentPlan } from './agent-request.js';
import type { AgentEnd } from './agent-result.js';
import type { AgentUsage } from './agent-usage.js';
import { toolFor } from './cua-actions.js';
import { computerUseSystemPrompt } from './cua-prompt.js';
import { runToolCall } from './tool-call.js';

export async function computerUseLoop(
  scope: OperationScope,
  plan: AgentPlan,
  client: ModelClient,
  run: Deadline,
  usage: AgentUsage,
  state: LoopState,
): Promise<AgentEnd> {
  if (!client.computerUse) throw new DeckhandError('internal_error', `${client.identity} has no computer use`);
  const tools = new Map(agentTools('cua', { variables: plan.variables, frameId: plan.frameId }).map((t) => [t.name, state.recorder?.wrap(t) ?? t]));
  const conversation = client.computerUse({
    system: computerUseSystemPrompt(plan.systemPrompt, variableInfo(plan.variables)),
    task: agentTaskPrompt(plan.instruction, scope.page.url()),
    display: await run.race(viewportOf(scope.page)),
  });

  while (state.steps < plan.maxSteps) {
    state.steps += 1;
    const turn = await conversation.next(run.signal, usage.meter);
    if (turn.calls.length === 0) return { reason: 'done', success: true, message: turn.text.trim() || 'The agent stopped without a summary' };
    for (const call of turn.calls) {
      if (call.needsConfirmation) {
        record(scope, state, call, turn.text, { tool: call.name, ok: false, error: `needs confirmation: ${call.needsConfirmation}`, timeMs: 0 });
        return {
          reason: 'refused',
          success: false,
          message: `Stopped before "${call.name}": the model's provider asks a person to confirm it (${call.needsConfirmation}), and this run has no one to ask`,
        };
      }
      const error = await runCall(scope, plan, run, usage, state, tools, call, turn.text);
      const screenshot = await runToolCall(tools.get('screenshot')!, {}, scope, run, plan.toolTimeoutMs, usage);
      // Without a picture of the page the model cannot go on.
      if (!screenshot.ok) return { reason: 'error', success: false, message: `Could not take the screenshot the model needs: ${screenshot.error}` };
      conversation.answer(call, {
        screenshot: (screenshot.output as Screenshot).image.data,
        // A form sent by GET puts what was typed into the URL.
        url: maskSecretsDeep(scope.page.url(), scope.secrets),
        ...(error && { error: maskSecretsDeep(error, scope.secrets) }),
      });
    }
  }
  return { reason: 'max_steps', success: false, message: `Stopped after ${plan.maxSteps} step(s) without finishing the task` };
}

/** Runs one provider call's actions in order, stopping at the first that fails; returns its error. */
async function runCall(
  scope: OperationScope,
  plan: AgentPlan,
  run: Deadline,
  usage: AgentUsage,
  state: LoopState,
  tools: Map<string, Tool>,
  call: ComputerCall,
  reasoning: string,
): Promise<string | undefined> {
  for (const action of call.actions) {
    const invocation = toolFor(action);
    const started = Date.now();
    if ('unsupported' in invocation) {
      record(scope, state, call, reasoning, { tool: call.name, ok: false, error: invocation.unsupported, timeMs: 0 });
      return invocation.unsupported;
    }
    const outcome = await runToolCall(tools.get(invocation.tool)!, invocation.input, scope, run, plan.toolTimeoutMs, usage);
    const error = outcome.ok ? undefined : outcome.error;
    record(scope, state, call, reasoning, { tool: invocation.tool, input: invocation.input, ok: outcome.ok, error, timeMs: Date.now() - started });
    if (error) return error;
  }
  return undefined;
}

interface StepRecord {
  tool: string;
  input?: unknown;
  ok: boolean;
  error?: string;
  timeMs: number;
}

/** One AgentAction and one log line per page action (variables as the model wrote them: by name). */
function record(scope: OperationScope, state: LoopState, call: ComputerCall, reasoning: string, step: StepRecord): void {
  const input = JSON.stringify(step.input ?? call.input ?? {});
  state.actions.push({
    type: step.tool,
    ...(reasoning.trim() && { reasoning: reasoning.trim() }),
    action: input,
    instruction: call.name,
    taskCompleted: false,
    success: step.ok,
    ...(step.error && { error: step.error }),
    timeMs: step.timeMs,
    pageUrl: scope.page.url(),
  });
  scope.log({ category: 'agent', message: `step ${state.steps}: ${call.name} → ${step.tool} ${input} → ${step.ok ? 'done' : `failed: ${step.error}`}`, level: 1 });
}
