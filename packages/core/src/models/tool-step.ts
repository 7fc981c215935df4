// One turn of a tool-calling conversation: the model sees the conversation and the tools' names,
// descriptions and input schemas, and answers with text and/or tool calls. Nothing is executed here:
// the caller runs the calls and continues the conversation, so it owns every step.
import { generateText, tool as sdkTool, type ModelMessage, type ToolSet } from 'ai';
import type { z } from 'zod';
import type { ProviderModel } from './language-model.js';
import { toCancellation, toModelError, type ModelCallSite } from './model-error.js';
import type { UsageMeter } from './usage.js';

export interface ToolSpec {
  name: string;
  description: string;
  input: z.ZodType;
}

export interface ToolStepRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  usage: UsageMeter;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model sent them; the caller checks them against the tool's input. */
  input: unknown;
}

export interface ToolStepReply {
  text: string;
  toolCalls: ToolCall[];
  /** The assistant's turn as the conversation must carry it (tool calls included). */
  messages: ModelMessage[];
}

/** Transient provider failures get one SDK-level retry, as structured calls do; the deadline bounds it. */
const PROVIDER_RETRIES = 1;

export async function generateToolStep(provider: ProviderModel, site: ModelCallSite, request: ToolStepRequest): Promise<ToolStepReply> {
  const tools: ToolSet = Object.fromEntries(
    request.tools.map((t) => [t.name, sdkTool({ description: t.description, inputSchema: t.input })]),
  );
  const started = performance.now();
  try {
    const result = await generateText({
      model: provider.model,
      system: request.system,
      messages: provider.imagesInToolResults ? request.messages : imagesAfterToolResults(request.messages),
      tools,
      abortSignal: request.signal,
      maxRetries: PROVIDER_RETRIES,
      ...provider.sampling,
    });
    request.usage.record(result.usage, performance.now() - started);
    return {
      text: result.text,
      toolCalls: result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, input: c.input })),
      // For a call it could not match to a tool or its schema, the SDK appends its own error result;
      // the caller answers every call itself, and a second result for one call id is refused by providers.
      messages: result.response.messages.filter((m) => m.role !== 'tool'),
    };
  } catch (error) {
    request.usage.record(undefined, performance.now() - started);
    if (request.signal.aborted) throw toCancellation(request.signal, site);
    throw toModelError(error, site);
  }
}

/**
 * Chat Completions carries a tool result as text only (the SDK would write a screenshot's base64 into
 * it): each image moves to a user message right after the tool results, which that format does read
 * as an image, and the result says where it went.
 */
function imagesAfterToolResults(messages: ModelMessage[]): ModelMessage[] {
  return messages.flatMap((message): ModelMessage[] => {
    if (message.role !== 'tool') return [message];
    const images: Array<{ type: 'image'; image: string; mediaType: string }> = [];
    const content = message.content.map((part) => {
      if (part.type !== 'tool-result' || part.output.type !== 'content') return part;
      const value = part.output.value.map((item) => {
        if (item.type !== 'image-data') return item;
        images.push({ type: 'image', image: item.data, mediaType: item.mediaType });
        return { type: 'text' as const, text: `(image ${images.length} of this step follows in the next message)` };
      });
      return { ...part, output: { ...part.output, value } };
    });
    if (images.length === 0) return [message];
    return [{ ...message, content }, { role: 'user', content: [{ type: 'text', text: 'The images the tool results above refer to:' }, ...images] }];
  });
}
