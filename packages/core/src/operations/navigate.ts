// Navigates a frame (the active page's main frame by default) and reports the main response in the
// shape of CDP's Network.Response, without its body.
import { randomUUID } from 'node:crypto';
import type { Frame, Page, Response } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { abandonSettle } from '../dom/settle.js';
import { assertDestinationAllowed, destinationBlocked } from '../network/destination-check.js';
import { canonicalHost } from '../network/ip-address.js';
import { BLOCKED_HEADER, NET_ERROR_HEADER, type PolicyProxy } from '../network/policy-proxy.js';
import { DeckhandError, firstLine, isDeckhandError } from '../errors.js';
import type { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { NavigateRequest, NavigateResult, NetworkResponse } from '../types.js';

/** Schemes a session may open; file:, chrome: and friends would reach into the server itself. */
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'about:', 'data:']);
/** navigate's deadline when the request gives none (the other operations use the session's default). */
export const NAVIGATE_TIMEOUT_MS = 30_000;

export async function navigate(scope: OperationScope, request: NavigateRequest): Promise<NavigateResult | null> {
  const guard = scope.navigation;
  const url = checkedUrl(request.url);
  const frame = await scope.frame(request.frameId);
  const deadline = scope.deadline;
  // The page the last action was settling is being left: nothing it owes matters any more.
  await abandonSettle(scope.context);
  // A cancelled or timed-out navigation must not keep loading under the session's next operation.
  let stopped: Promise<void> | undefined;
  const stopLoading = () => (stopped = stopPageLoading(frame.page()));
  deadline.signal.addEventListener('abort', stopLoading, { once: true });
  const goto = () => frame.goto(url, { referer: request.options?.referer, timeout: deadline.remaining(Infinity), waitUntil: request.options?.waitUntil ?? 'load' });
  try {
    await deadline.race(assertDestinationAllowed(url, guard.policy));
    const response = await deadline.race(gotoOverInterruptions(frame, url, goto, deadline));
    scope.log({ category: 'navigate', message: `navigated to ${frame.url()}`, level: 1 });
    if (!response) return null;
    if (guard.proxy) await assertNotRefusedByProxy(response, url);
    // The reply's own reads are inside the deadline too: the page may be busy by now.
    const [frameId, networkResponse] = await deadline.race(Promise.all([scope.frameIdOf(frame), networkResponseOf(response, guard.proxy)]));
    return { requestId: randomUUID(), frameId, response: networkResponse };
  } catch (error) {
    await stopped;
    throw asNavigationError(error, url);
  } finally {
    deadline.signal.removeEventListener('abort', stopLoading);
  }
}

/**
 * A navigation the page itself supersedes (a script redirect of the page we are leaving, or Chromium's
 * error page for an earlier failed load, which commits a few milliseconds after the failure was
 * reported) is tried once more. One whose own document committed and then sent itself elsewhere (a
 * sign-in page's script redirect) reached its destination: it answers without a response, the page
 * having gone on. A failed navigation waits for its own error page to commit, so the session's next
 * operation starts on a quiet page.
 */
async function gotoOverInterruptions(frame: Frame, url: string, goto: () => Promise<Response | null>, deadline: Deadline): Promise<Response | null> {
  const page = frame.page();
  let committedMeanwhile = false;
  let reached = false;
  const onCommit = (committed: Frame) => {
    if (committed !== frame) return;
    committedMeanwhile = true;
    if (sameDocument(committed.url(), url)) reached = true;
  };
  // Whichever try was cut short after its document committed reached it.
  const attempt = async (retry: boolean): Promise<Response | null> => {
    try {
      return await goto();
    } catch (error) {
      const message = firstLine(error);
      if (deadline.signal.aborted) throw error;
      if (INTERRUPTED.test(message) && reached) return null;
      if (retry) throw error;
      if (INTERRUPTED.test(message)) return await attempt(true);
      // An aborted load was superseded when another navigation of the frame commits meanwhile or right after.
      if (ABORTED.test(message) && (committedMeanwhile || (await nextCommit(frame, deadline)))) return await attempt(true);
      if (ERROR_PAGE_FOLLOWS.test(message)) await errorPage(frame, deadline);
      throw error;
    }
  };
  page.on('framenavigated', onCommit);
  try {
    return await attempt(false);
  } finally {
    page.off('framenavigated', onCommit);
  }
}

/** The same document address, its fragment aside. */
function sameDocument(committed: string, requested: string): boolean {
  try {
    const [a, b] = [new URL(committed), new URL(requested)];
    a.hash = b.hash = '';
    return a.href === b.href;
  } catch {
    return false;
  }
}

/** Playwright's words for a navigation cut short by another one that committed first. */
const INTERRUPTED = /is interrupted by another navigation/;
/** Chromium's code for a load that was cancelled, by another navigation among other reasons. */
const ABORTED = /net::ERR_ABORTED/;
/** Network failures after which Chromium shows its error page (an aborted load shows none). */
const ERROR_PAGE_FOLLOWS = /net::ERR_(?!ABORTED)[A-Z_]+/;
/** How long a failed navigation waits for the commit that follows it; that takes milliseconds. */
const FOLLOWING_COMMIT_WAIT_MS = 1_000;

/** Whether the frame commits another navigation soon. */
function nextCommit(frame: Frame, deadline: Deadline): Promise<boolean> {
  return frame
    .page()
    .waitForEvent('framenavigated', { predicate: (committed) => committed === frame, timeout: deadline.remaining(FOLLOWING_COMMIT_WAIT_MS) })
    .then(() => true, () => false);
}

/** Waits (briefly) until the frame shows Chromium's error page. */
async function errorPage(frame: Frame, deadline: Deadline): Promise<void> {
  await frame
    .waitForURL((url) => url.protocol === 'chrome-error:', { waitUntil: 'commit', timeout: deadline.remaining(FOLLOWING_COMMIT_WAIT_MS) })
    .catch(() => undefined);
}

async function stopPageLoading(page: Page): Promise<void> {
  try {
    await sendCdp(page, 'Page.stopLoading');
  } catch {
    // The page is gone or closing: nothing left to stop.
  }
}

function checkedUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new DeckhandError('validation_error', `Invalid URL "${raw}"`, [{ path: 'url', message: 'not an absolute URL' }]);
  }
  if (!ALLOWED_SCHEMES.has(parsed.protocol)) {
    throw new DeckhandError('validation_error', `URL scheme "${parsed.protocol}" is not allowed`, [
      { path: 'url', message: 'use http, https, about or data' },
    ]);
  }
  return parsed.href;
}

/**
 * The proxy answers a plain-HTTP request it refused or could not connect (after a redirect, say)
 * itself; such an answer is the error it stands for. Over HTTPS its refusals are tunnel failures.
 */
async function assertNotRefusedByProxy(response: Response, url: string): Promise<void> {
  if (!response.url().startsWith('http:')) return;
  const headers = await response.allHeaders();
  const blocked = headers[BLOCKED_HEADER];
  if (blocked) throw destinationBlocked(response.url(), blocked);
  const netError = headers[NET_ERROR_HEADER];
  if (netError) throw new DeckhandError('navigation_failed', `Navigation to ${url} failed: net::${netError}`);
}

async function networkResponseOf(response: Response, proxy?: PolicyProxy): Promise<NetworkResponse> {
  const [headers, server, security] = await Promise.all([
    response.allHeaders(),
    response.serverAddr(),
    response.securityDetails(),
  ]);
  // Behind the proxy, the browser's remote end is the proxy; the proxy knows where it connected.
  const remote = server && (proxy ? remoteBehindProxy(proxy, response.url()) : server);
  return {
    url: response.url(),
    status: response.status(),
    statusText: response.statusText(),
    headers,
    mimeType: (headers['content-type'] ?? '').split(';')[0]!.trim(),
    ...(remote && { remoteIPAddress: remote.ipAddress, remotePort: remote.port }),
    ...(security?.protocol && { protocol: security.protocol }),
    fromServiceWorker: response.fromServiceWorker(),
  };
}

function remoteBehindProxy(proxy: PolicyProxy, responseUrl: string) {
  const { hostname, port, protocol } = new URL(responseUrl);
  return proxy.remoteAddressOf(canonicalHost(hostname) ?? hostname, Number(port || (protocol === 'https:' ? 443 : 80)));
}

function asNavigationError(error: unknown, url: string): Error {
  if (isDeckhandError(error)) return error;
  const message = firstLine(error);
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new DeckhandError('timeout', `Navigation to ${url} timed out`);
  }
  const netError = /net::ERR_[A-Z_]+/.exec(message)?.[0];
  if (netError) return new DeckhandError('navigation_failed', `Navigation to ${url} failed: ${netError}`);
  if (INTERRUPTED.test(message)) return new DeckhandError('navigation_failed', `Navigation to ${url} failed: the page navigated elsewhere meanwhile, twice`);
  if (/Frame was detached/i.test(message)) return new DeckhandError('navigation_failed', `Navigation to ${url} failed: the frame was removed from the page`);
  return error instanceof Error ? error : new Error(message);
}
