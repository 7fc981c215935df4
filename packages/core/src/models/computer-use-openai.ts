// OpenAI's computer use over the Responses API (computer-use-preview): the AI SDK reads a
// computer_call as a tool the provider ran itself and has no way to answer it, so these turns are
// posted directly. The model answers with computer_call items (call_id, action, pending safety
// checks); each is answered with a computer_call_output holding a screenshot. The whole conversation
// is sent each turn (the model's own output items included), so nothing depends on stored responses.
import type { ComputerAction, ComputerCall, ComputerConversation, ComputerConversationStart, MouseButton } from './computer-use.js';
import type { ModelCallSite } from './model-error.js';
import { postJson, sdkUsage } from './provider-http.js';

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The wait action names no duration: about as long as a page takes to react. */
const WAIT_MS = 2_000;

export interface OpenAIEndpoint {
  baseURL?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  modelId: string;
  /** What the turns are posted with (policy-checked for an endpoint the request named). */
  fetch: typeof fetch;
}

type Item = Record<string, unknown>;

export function openaiComputerUse(endpoint: OpenAIEndpoint, site: ModelCallSite, start: ComputerConversationStart): ComputerConversation {
  const input: Item[] = [{ role: 'user', content: [{ type: 'input_text', text: start.task }] }];
  const url = `${(endpoint.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/responses`;
  const headers = { ...endpoint.headers, ...(endpoint.apiKey && { authorization: `Bearer ${endpoint.apiKey}` }) };
  const tool = { type: 'computer_use_preview', display_width: start.display.width, display_height: start.display.height, environment: 'browser' };
  // The output item has no field for a failure: failures are said in words after the outputs of the turn.
  let failures: string[] = [];

  return {
    async next(signal, usage) {
      if (failures.length > 0) input.push({ role: 'user', content: [{ type: 'input_text', text: failures.join('\n') }] });
      failures = [];
      const started = performance.now();
      let reply: { output?: Item[]; usage?: Record<string, any> };
      try {
        const body = { model: endpoint.modelId, instructions: start.system, input, tools: [tool], truncation: 'auto' };
        reply = (await postJson(url, headers, body, signal, site, endpoint.fetch)) as typeof reply;
      } catch (error) {
        usage.record(undefined, performance.now() - started);
        throw error;
      }
      const u = reply.usage ?? {};
      usage.record(
        sdkUsage(u.input_tokens ?? 0, u.output_tokens ?? 0, u.input_tokens_details?.cached_tokens ?? 0, u.output_tokens_details?.reasoning_tokens ?? 0),
        performance.now() - started,
      );
      const output = reply.output ?? [];
      // The model's items go back as they came (reasoning before its call is required with it).
      input.push(...output.map(({ status: _status, ...item }) => item));
      const text = output
        .filter((item) => item.type === 'message')
        .flatMap((item) => (item.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'output_text').map((c) => c.text ?? ''))
        .join('\n');
      const calls = output.filter((item) => item.type === 'computer_call').map(toCall);
      return { text, calls };
    },
    answer(call, outcome) {
      input.push({
        type: 'computer_call_output',
        call_id: call.id,
        output: { type: 'input_image', image_url: `data:image/png;base64,${outcome.screenshot}` },
      });
      if (outcome.error) failures.push(`The ${call.name} action failed: ${outcome.error}`);
    },
  };
}

function toCall(item: Item): ComputerCall {
  const action = (item.action ?? {}) as Record<string, any>;
  const checks = (item.pending_safety_checks ?? []) as Array<{ code?: string; message?: string }>;
  const name = String(action.type ?? 'unknown');
  return {
    id: String(item.call_id),
    name,
    input: action,
    actions: [toAction(name, action)],
    ...(checks.length > 0 && { needsConfirmation: checks.map((c) => c.message ?? c.code ?? 'a safety check').join('; ') }),
  };
}

const BUTTONS: Record<string, MouseButton> = { left: 'left', right: 'right', wheel: 'middle' };

function toAction(name: string, a: Record<string, any>): ComputerAction {
  switch (name) {
    case 'click':
      if (a.button === 'back') return { type: 'back' };
      return BUTTONS[a.button ?? 'left'] ? { type: 'click', x: a.x, y: a.y, button: BUTTONS[a.button ?? 'left']! } : { type: 'unsupported', what: `a click with the ${a.button} button` };
    case 'double_click':
      return { type: 'double_click', x: a.x, y: a.y };
    case 'type':
      return { type: 'type', text: String(a.text ?? '') };
    case 'keypress':
      return { type: 'keypress', keys: (a.keys ?? []) as string[] };
    case 'scroll':
      return { type: 'scroll', x: a.x, y: a.y, dx: a.scroll_x ?? 0, dy: a.scroll_y ?? 0 };
    case 'drag':
      return { type: 'drag', path: (a.path ?? []) as Array<{ x: number; y: number }> };
    case 'move':
      return { type: 'move', x: a.x, y: a.y };
    case 'wait':
      return { type: 'wait', ms: WAIT_MS };
    case 'screenshot':
      return { type: 'screenshot' };
    default:
      return { type: 'unsupported', what: `the action ${name}` };
  }
}
