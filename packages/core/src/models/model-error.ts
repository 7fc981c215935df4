// Provider failures become one clear model_error naming provider and status, and the provider's error
// type when it is one the providers document. The body of an answer is never quoted: the endpoint
// may be any URL a request named (an internal service), and some providers echo part of the key back.
import { AISDKError, APICallError, RetryError } from 'ai';
import { DeckhandError, isDeckhandError } from '../errors.js';

export interface ModelCallSite {
  provider: string;
  modelId: string;
  secrets: string[];
}

const MAX_DETAIL = 300;

export function toModelError(error: unknown, site: ModelCallSite): DeckhandError {
  const ours = ownError(error);
  if (ours) return ours;
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  let detail: string;
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    if (!status) detail = `network error: ${cause.message}`;
    else if (status >= 400) detail = `HTTP ${status}${knownType(cause.responseBody)}`;
    else detail = `the answer (HTTP ${status}) is not one ${site.provider} sends`;
  } else if (AISDKError.isInstance(cause)) {
    // The SDK's other errors quote what they could not read (InvalidResponseDataError, JSONParseError, TypeValidationError).
    detail = `the answer could not be read (${cause.name})`;
  } else {
    detail = cause instanceof Error ? cause.message : String(cause);
  }
  const message = `${site.provider} model "${site.modelId}" request failed: ${truncate(detail)}`;
  return new DeckhandError('model_error', redactSecrets(message, site.secrets));
}

/** Our own refusal (a blocked endpoint) inside the SDK's wrapping of a failed fetch. */
function ownError(error: unknown): DeckhandError | undefined {
  for (let at = error, depth = 0; at && depth < 5; depth++) {
    if (isDeckhandError(at)) return at;
    at = RetryError.isInstance(at) ? at.lastError : (at as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The call was cancelled (options.timeout or the client went away): surface the caller's reason. */
export function toCancellation(signal: AbortSignal, site: ModelCallSite): DeckhandError {
  if (isDeckhandError(signal.reason)) return signal.reason;
  return new DeckhandError('timeout', `${site.provider} model "${site.modelId}" call was cancelled before it finished`);
}

/** Removes known secrets, a URL's user:pass@ and query, and anything shaped like a provider key or bearer token. */
export function redactSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out
    // Bounded repeats: this runs on model output too, and must stay linear in it.
    .replace(/\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@]{0,256}@/gi, '$1')
    .replace(/\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s?#]{0,2048})\?[^\s#]*/gi, '$1')
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_*-]{6,}/g, '[redacted]')
    .replace(/\bAIza[0-9A-Za-z_-]{20,}/g, '[redacted]')
    .replace(/\bya29\.[\w.-]+/g, '[redacted]')
    .replace(/(bearer\s+)[\w.~+/=-]+/gi, '$1[redacted]');
}

/**
 * The error types and codes OpenAI, Anthropic and Google document: one of these in an error body is
 * named (it says what went wrong in a word); anything else in the body stays out of the message.
 */
const KNOWN_ERROR_TYPES = new Set([
  'invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'request_too_large',
  'rate_limit_error', 'api_error', 'overloaded_error', 'billing_error', 'timeout_error', 'server_error',
  'insufficient_quota', 'invalid_api_key', 'model_not_found', 'context_length_exceeded', 'rate_limit_exceeded',
  'INVALID_ARGUMENT', 'FAILED_PRECONDITION', 'OUT_OF_RANGE', 'UNAUTHENTICATED', 'PERMISSION_DENIED', 'NOT_FOUND',
  'RESOURCE_EXHAUSTED', 'CANCELLED', 'INTERNAL', 'UNAVAILABLE', 'DEADLINE_EXCEEDED',
]);

/** `: <type>` for the first known error type or code in a JSON error body, else nothing. */
function knownType(responseBody: string | undefined): string {
  let body: unknown;
  try {
    body = JSON.parse(responseBody ?? '');
  } catch {
    return '';
  }
  const error = (body as { error?: unknown })?.error;
  const fields = error && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  const found = [fields.type, fields.code, fields.status].find((value) => typeof value === 'string' && KNOWN_ERROR_TYPES.has(value));
  return found ? `: ${found as string}` : '';
}

function truncate(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}
