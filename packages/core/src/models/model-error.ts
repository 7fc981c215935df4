// Provider failures become one clear model_error naming provider and status. Provider messages are
// kept (they say what went wrong) but scrubbed: some providers echo part of the key back.
import { APICallError, RetryError } from 'ai';
import { DeckhandError, isDeckhandError } from '../errors.js';

export interface ModelCallSite {
  provider: string;
  modelId: string;
  secrets: string[];
}

const MAX_DETAIL = 300;

export function toModelError(error: unknown, site: ModelCallSite): DeckhandError {
  if (isDeckhandError(error)) return error;
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  let detail: string;
  if (APICallError.isInstance(cause)) {
    detail = cause.statusCode ? `HTTP ${cause.statusCode}: ${providerMessage(cause)}` : `network error: ${cause.message}`;
  } else {
    detail = cause instanceof Error ? cause.message : String(cause);
  }
  const message = `${site.provider} model "${site.modelId}" request failed: ${truncate(detail)}`;
  return new DeckhandError('model_error', redactSecrets(message, site.secrets));
}

/** The call was cancelled (options.timeout or the client went away): surface the caller's reason. */
export function toCancellation(signal: AbortSignal, site: ModelCallSite): DeckhandError {
  if (isDeckhandError(signal.reason)) return signal.reason;
  return new DeckhandError('timeout', `${site.provider} model "${site.modelId}" call was cancelled before it finished`);
}

/** Removes known secrets and anything shaped like a provider key or bearer token. */
export function redactSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_*-]{6,}/g, '[redacted]')
    .replace(/\bAIza[0-9A-Za-z_-]{20,}/g, '[redacted]')
    .replace(/\bya29\.[\w.-]+/g, '[redacted]')
    .replace(/(bearer\s+)[\w.~+/=-]+/gi, '$1[redacted]');
}

function providerMessage(error: APICallError): string {
  try {
    const body = JSON.parse(error.responseBody ?? '') as { error?: { message?: string } | string; message?: string };
    const fromBody = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (fromBody) return fromBody;
  } catch {
    // Not JSON: fall back to the SDK's own message.
  }
  return error.message;
}

function truncate(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}
