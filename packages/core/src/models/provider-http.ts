// A JSON POST to a provider endpoint the AI SDK does not speak (OpenAI's and Gemini's computer-use
// turns): failures become the same model_error as the SDK's (APICallError through toModelError),
// and a cancelled call the caller's reason.
import { APICallError } from 'ai';
import { toCancellation, toModelError, type ModelCallSite } from './model-error.js';

export async function postJson(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal, site: ModelCallSite): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw toCancellation(signal, site);
    throw toModelError(new APICallError({ message: error instanceof Error ? error.message : String(error), url, requestBodyValues: {}, cause: error }), site);
  }
  if (!response.ok) {
    throw toModelError(new APICallError({ message: response.statusText, url, requestBodyValues: {}, statusCode: response.status, responseBody: text }), site);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw toModelError(new Error(`the answer is not JSON (HTTP ${response.status})`), site);
  }
}

/** A usage record in the SDK's shape, for the meter every model call reports to. */
export function sdkUsage(input: number, output: number, cached = 0, reasoning = 0) {
  return {
    inputTokens: input,
    inputTokenDetails: { noCacheTokens: input - cached, cacheReadTokens: cached, cacheWriteTokens: undefined },
    outputTokens: output,
    outputTokenDetails: { textTokens: output - reasoning, reasoningTokens: reasoning },
    totalTokens: input + output,
  };
}
