// Gemini's computer use over generateContent (gemini-2.5-computer-use-*): the AI SDK does not offer
// the computer_use tool on that endpoint, so these turns are posted directly. The model answers with
// function calls of the tool's predefined functions (click_at, type_text_at, scroll_at…) whose
// coordinates are on a 0–999 grid over the screen; each is answered with a functionResponse holding
// the page's URL and a screenshot.
import type { ComputerAction, ComputerCall, ComputerConversation, ComputerConversationStart, Display } from './computer-use.js';
import { splitKeys } from './computer-use.js';
import type { ModelCallSite } from './model-error.js';
import { postJson, sdkUsage } from './provider-http.js';

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';
/** Gemini's grid: a coordinate of 1000 would be just past the right or bottom edge. */
const GRID = 1000;
/** scroll_at's default magnitude, on the same grid. */
const DEFAULT_MAGNITUDE = 800;

export interface GoogleEndpoint {
  baseURL?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  modelId: string;
  /** What the turns are posted with (policy-checked for an endpoint the request named). */
  fetch: typeof fetch;
}

type Content = { role: 'user' | 'model'; parts: Array<Record<string, unknown>> };

export function googleComputerUse(endpoint: GoogleEndpoint, site: ModelCallSite, start: ComputerConversationStart): ComputerConversation {
  const contents: Content[] = [{ role: 'user', parts: [{ text: start.task }] }];
  let responses: Array<Record<string, unknown>> = [];
  const url = `${(endpoint.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/models/${endpoint.modelId}:generateContent`;
  const headers = { ...endpoint.headers, ...(endpoint.apiKey && { 'x-goog-api-key': endpoint.apiKey }) };
  let counter = 0;

  return {
    async next(signal, usage) {
      if (responses.length > 0) contents.push({ role: 'user', parts: responses });
      responses = [];
      const started = performance.now();
      let reply: { candidates?: Array<{ content?: Content }>; usageMetadata?: Record<string, number> };
      try {
        const body = {
          systemInstruction: { parts: [{ text: start.system }] },
          contents,
          tools: [{ computerUse: { environment: 'ENVIRONMENT_BROWSER' } }],
        };
        reply = (await postJson(url, headers, body, signal, site, endpoint.fetch)) as typeof reply;
      } catch (error) {
        usage.record(undefined, performance.now() - started);
        throw error;
      }
      const u = reply.usageMetadata ?? {};
      usage.record(
        sdkUsage(u.promptTokenCount ?? 0, (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0), u.cachedContentTokenCount ?? 0, u.thoughtsTokenCount ?? 0),
        performance.now() - started,
      );
      const content = reply.candidates?.[0]?.content ?? { role: 'model', parts: [] };
      contents.push({ role: 'model', parts: content.parts ?? [] });
      const parts = content.parts ?? [];
      const text = parts.map((p) => (typeof p.text === 'string' && !p.thought ? p.text : '')).join('');
      const calls = parts
        .filter((p) => p.functionCall)
        .map((p) => toCall(p.functionCall as GoogleFunctionCall, start.display, ++counter));
      return { text, calls };
    },
    answer(call, outcome) {
      responses.push({
        functionResponse: {
          ...(!call.id.startsWith(LOCAL_ID) && { id: call.id }),
          name: call.name,
          response: { url: outcome.url, ...(outcome.error && { error: outcome.error }) },
          parts: [{ inlineData: { mimeType: 'image/png', data: outcome.screenshot } }],
        },
      });
    },
  };
}

type GoogleFunctionCall = { id?: string; name: string; args?: Record<string, any> };

/** Gemini may leave a call without an id; ours then only pairs the answer with it and is not sent. */
const LOCAL_ID = 'local-call-';

function toCall(call: GoogleFunctionCall, display: Display, n: number): ComputerCall {
  const args = call.args ?? {};
  const id = call.id ?? `${LOCAL_ID}${n}`;
  const safety = args.safety_decision as { decision?: string; explanation?: string } | undefined;
  return {
    id,
    name: call.name,
    input: args,
    actions: toActions(call.name, args, display),
    ...(safety?.decision === 'require_confirmation' && { needsConfirmation: safety.explanation ?? 'the model asks for confirmation' }),
  };
}

function toActions(name: string, a: Record<string, any>, display: Display): ComputerAction[] {
  const x = (v: unknown) => Math.min(display.width - 1, Math.round((Number(v) / GRID) * display.width));
  const y = (v: unknown) => Math.min(display.height - 1, Math.round((Number(v) / GRID) * display.height));
  const center = { x: Math.round(display.width / 2), y: Math.round(display.height / 2) };
  const scroll = (at: { x: number; y: number }, direction: string, magnitude: number): ComputerAction => {
    const dx = direction === 'left' ? -magnitude : direction === 'right' ? magnitude : 0;
    const dy = direction === 'up' ? -magnitude : direction === 'down' ? magnitude : 0;
    return { type: 'scroll', ...at, dx: Math.round((dx / GRID) * display.width), dy: Math.round((dy / GRID) * display.height) };
  };
  switch (name) {
    case 'open_web_browser':
      return [{ type: 'screenshot' }];
    case 'wait_5_seconds':
      return [{ type: 'wait', ms: 5_000 }];
    case 'go_back':
      return [{ type: 'back' }];
    case 'navigate':
      return [{ type: 'goto', url: String(a.url ?? '') }];
    case 'search':
      return [{ type: 'goto', url: 'https://www.google.com/' }];
    case 'click_at':
      return [{ type: 'click', x: x(a.x), y: y(a.y), button: 'left' }];
    case 'hover_at':
      return [{ type: 'move', x: x(a.x), y: y(a.y) }];
    case 'type_text_at': {
      const press = (...keys: string[]): ComputerAction => ({ type: 'keypress', keys });
      return [
        { type: 'click', x: x(a.x), y: y(a.y), button: 'left' },
        // Both default to true in Gemini's definition of the function.
        ...(a.clear_before_typing !== false ? [press('Control', 'a'), press('Delete')] : []),
        { type: 'type', text: String(a.text ?? '') },
        ...(a.press_enter !== false ? [press('Enter')] : []),
      ];
    }
    case 'key_combination':
      return [{ type: 'keypress', keys: splitKeys(String(a.keys ?? '')) }];
    case 'scroll_document':
      return [scroll(center, String(a.direction ?? 'down'), DEFAULT_MAGNITUDE)];
    case 'scroll_at':
      return [scroll({ x: x(a.x), y: y(a.y) }, String(a.direction ?? 'down'), Number(a.magnitude ?? DEFAULT_MAGNITUDE))];
    case 'drag_and_drop':
      return [{ type: 'drag', path: [{ x: x(a.x), y: y(a.y) }, { x: x(a.destination_x), y: y(a.destination_y) }] }];
    default:
      return [{ type: 'unsupported', what: `the function ${name}` }];
  }
}
