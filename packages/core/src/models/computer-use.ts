// A provider's native computer-use tool, in one shape for the agent: which models have one, the
// actions they ask for (in CSS pixels of the viewport, whatever the provider's own scale), and a
// conversation that takes each action's outcome back as a screenshot. The wire formats live in
// computer-use-{openai,anthropic,google}.ts.
import type { ModelTarget } from './resolve-model.js';
import type { UsageMeter } from './usage.js';

export type ComputerProtocol = 'openai' | 'anthropic' | 'google';

/** Anthropic's computer tool comes in versions, each for its own models. */
export type AnthropicComputerTool = 'computer_20250124' | 'computer_20251124';

export interface ComputerUseSupport {
  protocol: ComputerProtocol;
  anthropicTool?: AnthropicComputerTool;
}

/**
 * The models that have computer use (docs/decisions.md, "Agent modes: hybrid and cua"): OpenAI's
 * computer-use-preview over the Responses API, Claude Sonnet 3.7 and the Claude 4 family with
 * Anthropic's computer tool (Opus 4.5 with its newer version), and Gemini's computer-use models. Only
 * the providers' own endpoints: Azure, Vertex and Bedrock serve some of these under other names and
 * are not claimed here.
 */
export function computerUseOf(target: ModelTarget): ComputerUseSupport | undefined {
  const id = target.modelId.toLowerCase();
  if (target.kind === 'openai' && id.startsWith('computer-use-preview')) return { protocol: 'openai' };
  if (target.kind === 'anthropic') {
    if (/^claude-opus-4-5/.test(id)) return { protocol: 'anthropic', anthropicTool: 'computer_20251124' };
    if (/^claude-(3-7-sonnet|sonnet-4|opus-4|haiku-4-5)/.test(id)) return { protocol: 'anthropic', anthropicTool: 'computer_20250124' };
  }
  if (target.kind === 'google' && /computer-use/.test(id)) return { protocol: 'google' };
  return undefined;
}

/** The same rules in words, for the refusal of a model without computer use. */
export const COMPUTER_USE_MODELS =
  'a model with computer use: openai/computer-use-preview…, anthropic/claude-3-7-sonnet…, claude-sonnet-4…, claude-opus-4…, claude-haiku-4-5…, or google/gemini-…computer-use…';

export interface Display {
  width: number;
  height: number;
}

export type MouseButton = 'left' | 'right' | 'middle';

/** One thing the page is asked to do; coordinates are CSS pixels of the viewport. */
export type ComputerAction =
  | { type: 'click'; x: number; y: number; button: MouseButton }
  | { type: 'double_click'; x: number; y: number }
  | { type: 'type'; text: string }
  | { type: 'keypress'; keys: string[] }
  | { type: 'scroll'; x: number; y: number; dx: number; dy: number }
  | { type: 'drag'; path: Array<{ x: number; y: number }> }
  | { type: 'move'; x: number; y: number }
  | { type: 'wait'; ms: number }
  | { type: 'screenshot' }
  | { type: 'goto'; url: string }
  | { type: 'back' }
  /** Something this server does not do (e.g. holding a key down): a failed step the model hears about. */
  | { type: 'unsupported'; what: string };

/** One computer call of the model: one provider action, run as one or more page actions. */
export interface ComputerCall {
  /** The provider's id for the call, to answer it by. */
  id: string;
  /** The provider's name for the action (click_at, left_click, keypress…). */
  name: string;
  /** What the provider sent, for the answer's record (never holds a variable value: the model has none). */
  input: unknown;
  actions: ComputerAction[];
  /** The provider flagged this call and wants a person to confirm it (OpenAI's safety checks, Gemini's safety decision). */
  needsConfirmation?: string;
}

export interface ComputerTurn {
  text: string;
  calls: ComputerCall[];
}

export interface ComputerOutcome {
  /** Base64 PNG of the viewport after the call. */
  screenshot: string;
  url: string;
  /** Why the call failed, already masked of secrets. */
  error?: string;
}

export interface ComputerConversationStart {
  system: string;
  task: string;
  display: Display;
}

/** A computer-use conversation: the provider's own tool, turn by turn; every call gets one answer before the next turn. */
export interface ComputerConversation {
  next(signal: AbortSignal, usage: UsageMeter): Promise<ComputerTurn>;
  answer(call: ComputerCall, outcome: ComputerOutcome): void;
}

/** Key names as a provider writes them joined ("ctrl+a", "Return") → one per key. */
export function splitKeys(combo: string): string[] {
  return combo
    .split('+')
    .map((k) => k.trim())
    .filter(Boolean);
}
