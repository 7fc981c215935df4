// An in-process observer of every model request and its answer (the client's logInferenceToFile):
// the AI SDK's middleware around the provider model, so each call the core makes through the SDK
// (a structured answer and its retry, each agent turn, Anthropic's computer use) is seen once, as
// the provider is asked it. OpenAI's and Google's computer use speak HTTP themselves and are not seen.
import { wrapLanguageModel } from 'ai';
import type { LanguageModelV3 } from './model-config.js';
import { toModelError, type ModelCallSite } from './model-error.js';

export interface ModelCallRecord {
  /** provider/model (+ endpoint), as the session's logs and the act cache name it. */
  model: string;
  /** The messages sent, the system prompt first; a file or image as its media type and size only. */
  prompt: unknown[];
  /** The tools offered, by name. */
  tools?: string[];
  /** The response format asked for, when it is JSON (with its schema, if the provider takes one). */
  responseFormat?: unknown;
  /** The answer: its text, its tool calls (the input parsed when it is JSON), why it ended. */
  response?: { text: string; toolCalls: Array<{ id: string; name: string; input: unknown }>; finishReason: string };
  usage?: { inputTokens?: number; outputTokens?: number; reasoningTokens?: number; cachedInputTokens?: number };
  durationMs: number;
  /** Why the call failed, worded as the operation's model_error (the model's secrets removed). */
  error?: string;
}

/**
 * Receives each call as it ends. It runs inside the call, so it must not throw or take long (a
 * throw is ignored). The record is as sent: the observer masks what it writes.
 */
export type OnModelCall = (call: ModelCallRecord) => void;

export function observeModelCalls(model: LanguageModelV3, identity: string, site: ModelCallSite, onModelCall: OnModelCall): LanguageModelV3 {
  const tell = (record: ModelCallRecord) => {
    try {
      onModelCall(record);
    } catch {
      // An observer's failure is not the call's.
    }
  };
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      async wrapGenerate({ doGenerate, params }) {
        const started = performance.now();
        const request = {
          model: identity,
          prompt: params.prompt.map(withoutFileData),
          ...(params.tools?.length && { tools: params.tools.map((t) => t.name) }),
          ...(params.responseFormat?.type === 'json' && { responseFormat: params.responseFormat }),
        };
        try {
          const result = await doGenerate();
          const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
          const toolCalls = result.content.flatMap((part) => (part.type === 'tool-call' ? [{ id: part.toolCallId, name: part.toolName, input: parsed(part.input) }] : []));
          const { inputTokens, outputTokens } = result.usage;
          tell({
            ...request,
            response: { text, toolCalls, finishReason: result.finishReason.unified },
            usage: { inputTokens: inputTokens.total, outputTokens: outputTokens.total, reasoningTokens: outputTokens.reasoning, cachedInputTokens: inputTokens.cacheRead },
            durationMs: Math.round(performance.now() - started),
          });
          return result;
        } catch (error) {
          tell({ ...request, durationMs: Math.round(performance.now() - started), error: toModelError(error, site).message });
          throw error;
        }
      },
    },
  });
}

/** A message with the bytes of its files and images left out (a screenshot is ~100 KB of base64 a step). */
function withoutFileData(value: unknown): unknown {
  if (value instanceof Uint8Array) return `(${value.byteLength} bytes)`;
  if (value instanceof URL) return value.href;
  if (Array.isArray(value)) return value.map(withoutFileData);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, inner]): [string, unknown] =>
    key === 'data' && 'mediaType' in value && typeof inner === 'string' && !/^https?:/.test(inner) ? [key, `(${inner.length} characters)`] : [key, withoutFileData(inner)],
  );
  return Object.fromEntries(entries);
}

function parsed(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
