// Structured output from any provider: the SDK's response format where the endpoint supports it,
// otherwise JSON asked for in the prompt and read from the text; either way the result is validated
// and the model gets one retry that shows it what was wrong.
import { generateText, NoObjectGeneratedError, Output, jsonSchema, type LanguageModelUsage, type ModelMessage } from 'ai';
import { DeckhandError } from '../errors.js';
import { validateAgainstSchema, type JSONSchema } from './json-schema.js';
import type { ProviderModel } from './language-model.js';
import { redactSecrets, toCancellation, toModelError, type ModelCallSite } from './model-error.js';
import type { UsageMeter } from './usage.js';

export interface StructuredRequest {
  system: string;
  prompt: string;
  /** JSON Schema of the object the model must return. */
  schema: JSONSchema;
  /** Applied to the parsed reply before it is validated (e.g. a refusal drops the action fields it left behind). */
  normalize?: (value: unknown) => unknown;
  /** A check beyond the schema (e.g. "element ids must exist"); returns the problem, if any. */
  check?: (value: unknown) => string | undefined;
  signal: AbortSignal;
  usage: UsageMeter;
}

/** Debug-level log sink; callers never receive secrets through it. */
export type ModelLog = (message: string, fields?: Record<string, string | number>) => void;

/** Transient provider failures (429, 5xx, network) get one SDK-level retry; the deadline bounds it. */
const PROVIDER_RETRIES = 1;

/** Our own validation decides what is acceptable, so provider-side strict schemas add only failure modes. */
const PROVIDER_OPTIONS = { openai: { strictJsonSchema: false }, azure: { strictJsonSchema: false } };

export async function generateStructured(
  provider: ProviderModel,
  site: ModelCallSite,
  request: StructuredRequest,
  log?: ModelLog,
): Promise<unknown> {
  const { system, schema, signal, usage } = request;
  const prompt = provider.nativeStructuredOutput ? request.prompt : `${request.prompt}\n\n${jsonInstruction(schema)}`;
  const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
  let problem = '';

  for (let attempt = 1; attempt <= 2; attempt++) {
    const reply = await callModel(provider, site, { system, messages, schema, signal, usage });
    log?.('model call', {
      model: `${site.provider}/${site.modelId}`,
      attempt,
      inputTokens: reply.usage?.inputTokens ?? 0,
      outputTokens: reply.usage?.outputTokens ?? 0,
    });
    const parsed = parseFirstJsonObject(reply.text);
    const value = parsed.ok && request.normalize ? request.normalize(parsed.value) : parsed.ok ? parsed.value : undefined;
    problem = parsed.ok ? (validateAgainstSchema(schema, value) ?? request.check?.(value) ?? '') : parsed.problem;
    if (parsed.ok && !problem) return value;
    log?.('model output rejected', { attempt, problem: redactSecrets(problem, site.secrets) });
    messages.push(
      { role: 'assistant', content: reply.text || '(empty reply)' },
      { role: 'user', content: `Your reply was rejected: ${problem}\nReply again with only the corrected JSON object.` },
    );
  }
  throw new DeckhandError(
    'model_error',
    redactSecrets(`${site.provider} model "${site.modelId}" returned output that does not match the expected format: ${problem}`, site.secrets),
  );
}

// The SDK prints provider warnings (unknown model ids, compatibility modes) straight to the console,
// around our logger; they are not actionable for callers, so that printing is switched off.
(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;

interface Reply {
  text: string;
  usage?: LanguageModelUsage;
}

async function callModel(
  provider: ProviderModel,
  site: ModelCallSite,
  call: { system: string; messages: ModelMessage[]; schema: JSONSchema; signal: AbortSignal; usage: UsageMeter },
): Promise<Reply> {
  const started = performance.now();
  try {
    const result = await generateText({
      model: provider.model,
      system: call.system,
      messages: call.messages,
      abortSignal: call.signal,
      maxRetries: PROVIDER_RETRIES,
      providerOptions: PROVIDER_OPTIONS,
      ...provider.sampling,
      ...(provider.nativeStructuredOutput && { output: Output.object({ schema: jsonSchema(call.schema) }) }),
    });
    call.usage.record(result.usage, performance.now() - started);
    return { text: result.text, usage: result.usage };
  } catch (error) {
    // The SDK refuses unparseable structured output by throwing; we want the text, to retry with it.
    if (NoObjectGeneratedError.isInstance(error)) {
      call.usage.record(error.usage, performance.now() - started);
      return { text: error.text ?? '', usage: error.usage };
    }
    call.usage.record(undefined, performance.now() - started);
    if (call.signal.aborted) throw toCancellation(call.signal, site);
    throw toModelError(error, site);
  }
}

function jsonInstruction(schema: JSONSchema): string {
  return `Reply with only a JSON object (no prose, no code fence) that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}

type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

/** Reads the first JSON object in a reply, tolerating prose or code fences around it. */
function parseFirstJsonObject(text: string): Parsed {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    if (end === -1) break;
    try {
      return { ok: true, value: JSON.parse(text.slice(start, end + 1)) };
    } catch {
      // Braces that balance but are not JSON (prose like "{like this}"): try the next one.
    }
  }
  return { ok: false, problem: 'the reply contains no JSON object' };
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}
