// Counts a page's in-flight requests (all its frames) from the moment it is made, so we can tell when
// the requests an action started have finished.
import type { Page, Request } from 'playwright-core';

/** Long-lived streams never finish; a request pending this long no longer holds the page unsettled. */
const STALLED_MS = 2_000;
const LONG_LIVED = new Set(['websocket', 'eventsource']);

export class NetworkMonitor {
  private readonly inFlight = new Map<Request, number>();
  /** When a request last started or ended; undefined while none has. */
  private lastActivity: number | undefined;
  private readonly onRequest = (request: Request) => {
    if (LONG_LIVED.has(request.resourceType())) return;
    this.inFlight.set(request, Date.now());
    this.lastActivity = Date.now();
  };
  private readonly onDone = (request: Request) => {
    if (this.inFlight.delete(request)) this.lastActivity = Date.now();
  };

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('requestfinished', this.onDone);
    page.on('requestfailed', this.onDone);
  }

  /**
   * True when nothing (but stalled requests) is in flight and, if any request was made, none started or
   * ended in the last graceMs: the page gets that long to use what a response brought.
   */
  idle(graceMs: number): boolean {
    const now = Date.now();
    const busy = [...this.inFlight.values()].some((started) => now - started < STALLED_MS);
    return !busy && (this.lastActivity === undefined || now - this.lastActivity >= graceMs);
  }

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('requestfinished', this.onDone);
    this.page.off('requestfailed', this.onDone);
  }
}
