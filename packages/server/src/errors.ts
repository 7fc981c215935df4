// The one error body, and the single place where thrown values become HTTP responses.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { briefly, DeckhandError, isDeckhandError, type ErrorCode, type ValidationIssue } from '@deckhand/core';
import type { ErrorResponse } from '@deckhand/contract';
import type { AppEnv } from './env';
import type { Logger } from './logger';

export function errorBody(code: ErrorCode, message: string, issues?: ValidationIssue[]): ErrorResponse {
  return issues ? { success: false, message, code, issues } : { success: false, message, code };
}

/**
 * Zod issues of one request part (`body`, `header`, `path`) → our issues, with a readable summary;
 * `unknown` adds an issue for each field of the part that the operation does not take.
 */
export function validationError(target: string, error: ZodError, unknown: ValidationIssue[] = []): DeckhandError {
  const prefix = target === 'json' ? 'body' : target === 'param' ? 'path' : target;
  const issues = [
    ...error.issues.map((issue) => ({
      path: [prefix, ...issue.path.map(String)].join('.'),
      message: issue.code === 'invalid_union' ? unionMessage(issue.errors) : isMissing(issue) ? 'required' : issue.message,
    })),
    ...unknown,
  ];
  const summary = issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join('; ');
  return new DeckhandError('validation_error', `Invalid request: ${summary}`, issues);
}

type Issue = ZodError['issues'][number];

/** A value that is absent where one is required. */
function isMissing(issue: Issue): boolean {
  return issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
}

/**
 * What an input matching none of a union's forms lacks. Forms whose fixed value (a `type`
 * discriminator) differs are set aside: the input chose another form. When the others only miss
 * fields, the message names them ("needs cdpUrl or launchOptions"); otherwise the closest form's
 * problems are given.
 */
function unionMessage(branches: Issue[][]): string {
  const chosen = branches.filter((branch) => !branch.some((i) => i.code === 'invalid_value' && i.values.length === 1));
  const candidates = chosen.length > 0 ? chosen : branches;
  const missing = candidates.map((branch) => branch.filter(isMissing));
  if (candidates.every((branch, i) => branch.length > 0 && missing[i]!.length === branch.length)) {
    // Every form misses the value itself (no field inside it): the value is what is required.
    if (missing.some((branch) => branch.some((i) => i.path.length === 0))) return 'required';
    return `needs ${missing.map((branch) => branch.map((i) => i.path.join('.')).join(' and ')).join(' or ')}`;
  }
  const closest = [...candidates].sort((a, b) => a.length - b.length)[0] ?? [];
  return closest.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ') || 'Invalid input';
}

/** Maps anything thrown to a response. Unexpected errors get a generic message; detail goes to the log only. */
export function toErrorResponse(c: Context<AppEnv>, error: unknown): Response {
  const known = asDeckhandError(error);
  if (known) {
    logKnown(c.get('logger'), c.get('requestId'), known);
    const headers = known.retryAfterSeconds ? { 'retry-after': String(known.retryAfterSeconds) } : undefined;
    return c.json(errorBody(known.code, known.message, known.issues), known.status as 400, headers);
  }
  return c.json(errorBody('internal_error', unexpectedMessage(c.get('logger'), c.get('requestId'), error, 'unexpected error')), 500);
}

/** Logs a known error under the request id, with what went wrong underneath (its cause), which the client never sees. */
export function logKnown(logger: Logger | undefined, requestId: string, known: DeckhandError): void {
  const detail = known.cause === undefined ? {} : { detail: briefly(known.cause) };
  logger?.info('request failed', { requestId, code: known.code, status: known.status, ...detail });
}

/** How much of an unexpected error (its message and stack) one log line keeps. */
const MAX_LOGGED_ERROR = 4_000;

/** Logs an unexpected error's detail under the request id (`what` is the log message); returns the generic message clients get. */
export function unexpectedMessage(logger: Logger | undefined, requestId: string, error: unknown, what: string): string {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  // A browser's error can quote a page at any length (a page's exception of 200 KB): the log keeps the start.
  logger?.error(what, { requestId, error: detail.length > MAX_LOGGED_ERROR ? `${detail.slice(0, MAX_LOGGED_ERROR)}…` : detail });
  return `Internal error (request id ${requestId})`;
}

/**
 * The known errors, including Hono's own (malformed JSON, wrong content type). An internal_error is
 * never "known": whatever its message says stays in the log, and the client gets the generic one.
 */
export function asDeckhandError(error: unknown): DeckhandError | undefined {
  if (isDeckhandError(error)) return error.code === 'internal_error' ? undefined : error;
  if (error instanceof HTTPException) {
    if (error.status === 400) return new DeckhandError('validation_error', error.message || 'Malformed request');
    if (error.status === 415) return new DeckhandError('validation_error', 'Content-Type must be application/json');
  }
  return undefined;
}
