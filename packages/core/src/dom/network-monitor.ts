// Counts a page's requests (all its frames) so we can tell when the requests an action started have
// finished. One watcher per page, for the page's life: Playwright reports requests only while
// someone listens, and turning that on and off around every action cost each act a few milliseconds.
import type { Page, Request } from 'playwright-core';

/** Long-lived streams never finish; a request pending this long no longer holds the page unsettled. */
const STALLED_MS = 2_000;
const LONG_LIVED = new Set(['websocket', 'eventsource']);
/** How many requests a page's watcher holds before it forgets the old ones without being asked. */
const PRUNE_AT = 256;

/** A request's start and, once it finished or failed, its end (Date.now()). */
interface Span {
  start: number;
  end?: number;
}

class PageRequests {
  /** Requests not finished yet, and those that finished within the last STALLED_MS. */
  private readonly spans = new Map<Request, Span>();

  constructor(page: Page) {
    page.on('request', (request) => {
      if (LONG_LIVED.has(request.resourceType())) return;
      // A page that keeps requesting between actions is pruned as it goes.
      if (this.spans.size >= PRUNE_AT) this.prune(Date.now());
      this.spans.set(request, { start: Date.now() });
    });
    const done = (request: Request) => {
      const span = this.spans.get(request);
      if (span) span.end = Date.now();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  }

  /** See NetworkMonitor.idle. */
  idle(since: number, graceMs: number): boolean {
    const now = Date.now();
    this.prune(now);
    let last: number | undefined;
    for (const { start, end } of this.spans.values()) {
      if (start < since) continue;
      if (end === undefined) return false;
      last = Math.max(last ?? end, end);
    }
    return last === undefined || now - last >= graceMs;
  }

  /** Forgets requests that ended, or stalled, more than STALLED_MS ago: they no longer hold anything. */
  private prune(now: number): void {
    for (const [request, { start, end }] of this.spans) if ((end ?? start) < now - STALLED_MS) this.spans.delete(request);
  }
}

const perPage = new WeakMap<Page, PageRequests>();

/** The requests a page makes from the moment the monitor is made. */
export class NetworkMonitor {
  private readonly requests: PageRequests;
  private readonly since = Date.now();

  constructor(page: Page) {
    let requests = perPage.get(page);
    if (!requests) {
      requests = new PageRequests(page);
      perPage.set(page, requests);
    }
    this.requests = requests;
  }

  /**
   * True when none of the requests made since the monitor was made is in flight (but stalled ones)
   * and none started or ended in the last graceMs: the page gets that long to use what a response
   * brought.
   */
  idle(graceMs: number): boolean {
    return this.requests.idle(this.since, graceMs);
  }
}
