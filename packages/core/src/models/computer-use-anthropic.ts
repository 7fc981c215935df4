// Anthropic's computer tool through the AI SDK (anthropic.tools.computer_*): the model answers with
// tool_use blocks of the "computer" tool (action, coordinate, text…), each answered with a
// tool_result holding a screenshot. Coordinates are in the display size we declare, the viewport's.
import { anthropic } from '@ai-sdk/anthropic';
import { generateText, type ModelMessage, type ToolResultPart, type ToolSet } from 'ai';
import type { AnthropicComputerTool, ComputerAction, ComputerCall, ComputerConversation, ComputerConversationStart } from './computer-use.js';
import { splitKeys } from './computer-use.js';
import type { ProviderModel } from './language-model.js';
import { toCancellation, toModelError, type ModelCallSite } from './model-error.js';

const PROVIDER_RETRIES = 1;
/** One scroll "click" of the wheel, in CSS pixels. */
const SCROLL_STEP_PX = 100;
/** The wait tool's ceiling (browser-tools.ts): a longer wait is cut to it. */
const MAX_WAIT_MS = 10_000;

export function anthropicComputerUse(
  provider: ProviderModel,
  site: ModelCallSite,
  version: AnthropicComputerTool,
  start: ComputerConversationStart,
): ComputerConversation {
  const messages: ModelMessage[] = [{ role: 'user', content: start.task }];
  let results: ToolResultPart[] = [];
  const display = { displayWidthPx: start.display.width, displayHeightPx: start.display.height };
  // The tool factories only describe the tool; the model object (with its key and endpoint) makes the call.
  const computer = version === 'computer_20251124' ? anthropic.tools.computer_20251124(display) : anthropic.tools.computer_20250124(display);
  // The provider package builds on its own copy of provider-utils, whose Tool type ai's does not
  // recognise as the same; the object is what ai expects.
  const tools = { computer } as unknown as ToolSet;

  return {
    async next(signal, usage) {
      if (results.length > 0) messages.push({ role: 'tool', content: results });
      results = [];
      const started = performance.now();
      try {
        const result = await generateText({
          model: provider.model,
          system: start.system,
          messages,
          tools,
          abortSignal: signal,
          maxRetries: PROVIDER_RETRIES,
        });
        usage.record(result.usage, performance.now() - started);
        // The caller answers every call itself (see tool-step.ts).
        messages.push(...result.response.messages.filter((m) => m.role !== 'tool'));
        const calls = result.toolCalls.map(
          (c): ComputerCall => ({
            id: c.toolCallId,
            name: c.toolName === 'computer' ? String((c.input as { action?: unknown }).action) : c.toolName,
            input: c.input,
            actions: [c.toolName === 'computer' ? toAction(c.input as Record<string, any>) : { type: 'unsupported', what: `a tool named ${c.toolName}` }],
          }),
        );
        return { text: result.text, calls };
      } catch (error) {
        usage.record(undefined, performance.now() - started);
        if (signal.aborted) throw toCancellation(signal, site);
        throw toModelError(error, site);
      }
    },
    answer(call, outcome) {
      const note = outcome.error ? `The ${call.name} action failed: ${outcome.error}` : `Done. The page is at ${outcome.url}.`;
      results.push({
        type: 'tool-result',
        toolCallId: call.id,
        toolName: 'computer',
        output: { type: 'content', value: [{ type: 'text', text: note }, { type: 'image-data', data: outcome.screenshot, mediaType: 'image/png' }] },
      });
    },
  };
}

function toAction(a: Record<string, any>): ComputerAction {
  const at = (c: unknown) => (Array.isArray(c) && c.length === 2 ? { x: Number(c[0]), y: Number(c[1]) } : undefined);
  const point = at(a.coordinate);
  const needsPoint = (make: (p: { x: number; y: number }) => ComputerAction): ComputerAction =>
    point ? make(point) : { type: 'unsupported', what: `${a.action} without a coordinate` };
  switch (a.action) {
    case 'left_click':
      return needsPoint((p) => ({ type: 'click', ...p, button: 'left' }));
    case 'right_click':
      return needsPoint((p) => ({ type: 'click', ...p, button: 'right' }));
    case 'middle_click':
      return needsPoint((p) => ({ type: 'click', ...p, button: 'middle' }));
    case 'double_click':
      return needsPoint((p) => ({ type: 'double_click', ...p }));
    case 'mouse_move':
      return needsPoint((p) => ({ type: 'move', ...p }));
    case 'left_click_drag': {
      const from = at(a.start_coordinate);
      return from && point ? { type: 'drag', path: [from, point] } : { type: 'unsupported', what: 'a drag without both coordinates' };
    }
    case 'type':
      return { type: 'type', text: String(a.text ?? '') };
    case 'key':
      return { type: 'keypress', keys: splitKeys(String(a.text ?? '')) };
    case 'scroll': {
      const amount = Number(a.scroll_amount ?? 3) * SCROLL_STEP_PX;
      const direction = String(a.scroll_direction ?? 'down');
      const dx = direction === 'left' ? -amount : direction === 'right' ? amount : 0;
      const dy = direction === 'up' ? -amount : direction === 'down' ? amount : 0;
      return needsPoint((p) => ({ type: 'scroll', ...p, dx, dy }));
    }
    case 'wait':
      return { type: 'wait', ms: Math.min(MAX_WAIT_MS, Math.max(1, Math.round(Number(a.duration ?? 1) * 1000))) };
    case 'screenshot':
      return { type: 'screenshot' };
    default:
      return { type: 'unsupported', what: `the action ${a.action}` };
  }
}
