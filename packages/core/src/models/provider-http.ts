// A JSON POST to a provider endpoint the AI SDK does not speak (OpenAI's and Gemini's computer-use
// turns): failures become the same model_error as the SDK's (APICallError through toModelError),
// and a cancelled call the caller's reason.
import { setTimeout as sleep } from 'node:timers/promises';
import { APICallError } from 'ai';
import { isDeckhandError } from '../errors.js';
import { toCancellation, toModelError, type ModelCallSite } from './model-error.js';

/** Transient failures (429, 5xx, network) get one more try, as SDK calls do; the caller's deadline bounds both. */
const PROVIDER_RETRIES = 1;
const RETRY_DELAY_MS = 1_000;

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
  site: ModelCallSite,
  send: typeof fetch = fetch,
): Promise<unknown> {
  let failure: APICallError | undefined;
  for (let attempt = 0; attempt <= PROVIDER_RETRIES; attempt++) {
    if (attempt > 0) {
      await sleep(RETRY_DELAY_MS, undefined, { signal }).catch(() => {
        throw toCancellation(signal, site);
      });
    }
    let response: Response;
    let text: string;
    try {
      response = await send(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw toCancellation(signal, site);
      if (isDeckhandError(error)) throw error;
      failure = new APICallError({ message: error instanceof Error ? error.message : String(error), url, requestBodyValues: {}, cause: error });
      continue;
    }
    if (response.ok) return parse(text, response.status, site);
    failure = new APICallError({ message: response.statusText, url, requestBodyValues: {}, statusCode: response.status, responseBody: text });
    if (response.status !== 429 && response.status < 500) break;
  }
  throw toModelError(failure, site);
}

function parse(text: string, status: number, site: ModelCallSite): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw toModelError(new Error(`the answer is not JSON (HTTP ${status})`), site);
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
