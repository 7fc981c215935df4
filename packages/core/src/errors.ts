// Errors are values with a code and an HTTP status, defined once; the server maps them in one place.

export const ERROR_STATUS = {
  validation_error: 400,
  missing_model_key: 400,
  frame_not_found: 400,
  unauthorized: 401,
  forbidden: 403,
  destination_blocked: 403,
  session_not_found: 404,
  file_not_found: 404,
  route_not_found: 404,
  timeout: 408,
  session_gone: 410,
  session_lost: 410,
  payload_too_large: 413,
  expectation_failed: 417,
  headers_too_large: 431,
  unprocessable: 422,
  upgrade_required: 426,
  session_limit: 429,
  rate_limited: 429,
  disk_quota: 429,
  internal_error: 500,
  model_error: 502,
  navigation_failed: 502,
  browser_unavailable: 503,
  cluster_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ValidationIssue {
  path: string;
  message: string;
}

export class DeckhandError extends Error {
  readonly status: number;
  readonly retryAfterSeconds?: number;
  /** `cause`: what went wrong underneath (a browser's or library's own words), for the log only. */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ValidationIssue[],
    /** `retryAfterSeconds`: for a 429 or 503, whole seconds (at least 1) to wait, sent as the retry-after header. */
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DeckhandError';
    this.status = ERROR_STATUS[code];
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export function isDeckhandError(value: unknown): value is DeckhandError {
  return value instanceof DeckhandError;
}

/** The first line of a thrown value's message: Playwright appends call logs below it. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/**
 * A browser failure in our words, for messages clients read: Playwright's method prefix
 * ("page.evaluate: ", "page.screenshot: Error: ") is dropped and its crash words are said plainly.
 * The original stays the DeckhandError's cause, which the server logs.
 */
export function browserFailure(error: unknown): string {
  const line = firstLine(error).replace(/^[\w.]+: (Error: )?/, '');
  if (/Target crashed/i.test(line)) return "the session's page crashed (its renderer died: out of memory, or Page.crash)";
  if (/Target page, context or browser has been closed|Target closed|Browser has been closed/i.test(line)) return "the session's page or browser was closed";
  if (/Execution context was destroyed/i.test(line)) return 'the page navigated away while it was being read';
  return line;
}
