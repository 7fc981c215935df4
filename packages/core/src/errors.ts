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

/** The first line of a thrown value's message: Playwright appends call logs below it. Whole, for matching; see briefly for messages. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const end = message.indexOf('\n');
  return end < 0 ? message : message.slice(0, end);
}

/** How much of a browser's message reaches a client or a log line: a page can make one as long as it likes (p30 threw 200 KB). */
export const MAX_BROWSER_WORDS = 300;

/** firstLine cut to MAX_BROWSER_WORDS, for what a client or the log reads. */
export function briefly(error: unknown): string {
  const line = firstLine(error);
  return line.length > MAX_BROWSER_WORDS ? `${line.slice(0, MAX_BROWSER_WORDS)}…` : line;
}

/**
 * A page's own script broke an evaluation of ours (it replaced a DOM function we call with one that
 * throws, or returns what no browser would). The page's words are the message, for the log only:
 * clients read PAGE_SCRIPT_FAILURE instead.
 */
export class PageScriptError extends Error {
  override readonly name = 'PageScriptError';
  constructor(pageWords: string) {
    super(`a script of the page threw: ${briefly(pageWords)}`);
  }
}

/** What a client reads when a page's own script broke a read or an action: never the page's words. */
export const PAGE_SCRIPT_FAILURE =
  "the page's own script failed inside Deckhand's work on it (a page can replace the DOM functions Deckhand calls, such as getBoundingClientRect or elementFromPoint, with ones that fail)";

/** Playwright's prefix for a failed evaluation: what follows is the page's exception, unless it starts with the browser's own words. */
const EVALUATE_PREFIX = /^(?:frame|page|elementHandle|jsHandle|locator)\.evaluate(?:All|Handle)?: /;

/** The browser's and Playwright's own failures, each in our words (the first that matches counts). */
const BROWSER_FAILURES: ReadonlyArray<readonly [RegExp, string]> = [
  [/Target crashed/i, "the session's page crashed (its renderer died: out of memory, or Page.crash)"],
  [/(Target page, context or browser has been closed|Target closed|Browser has been closed|Session closed)/i, "the session's page or browser was closed"],
  [/(Execution context was destroyed|Cannot find (default )?(execution )?context|Frame was detached)/i, 'the page navigated away while it was being read'],
  [/(JSHandle is disposed|Element is not attached)/i, 'the element is no longer attached to the page'],
  [/Protocol error/i, 'the browser could not carry out the call'],
];

/** Whether `error` is a page's own exception out of one of our evaluations (its text is the page's). */
export function isPageException(error: unknown): boolean {
  if (error instanceof PageScriptError) return true;
  if (!(error instanceof Error) || error.name === 'TimeoutError') return false;
  const line = firstLine(error);
  if (!EVALUATE_PREFIX.test(line)) return false;
  const rest = line.replace(EVALUATE_PREFIX, '');
  // An Error a page throws starts with its name ("Error: "); a bare string of these words is taken at its word, and answered in ours.
  return !BROWSER_FAILURES.some(([words]) => words.exec(rest)?.index === 0);
}

/** A page's exception as the operation's answer (422, in our words; the page's first line stays the cause, for the log); any other error as it is. */
export function pageScriptFailure(error: unknown): unknown {
  if (!isPageException(error)) return error;
  return new DeckhandError('unprocessable', `The page could not be used: ${PAGE_SCRIPT_FAILURE}.`, undefined, { cause: error });
}

/**
 * A browser failure in our words, for messages clients read: Playwright's method prefix
 * ("page.evaluate: ", "page.screenshot: Error: ") is dropped and its crash words are said plainly;
 * a page's own exception is never passed on. The original stays the DeckhandError's cause, which the server logs.
 */
export function browserFailure(error: unknown): string {
  if (isPageException(error)) return PAGE_SCRIPT_FAILURE;
  const line = briefly(error).replace(/^[\w.]+: (Error: )?/, '');
  return BROWSER_FAILURES.find(([words]) => words.test(line))?.[1] ?? line;
}
