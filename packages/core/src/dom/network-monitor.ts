// Counts a page's in-flight requests (all its frames) so we can tell when the network has gone quiet.
import type { Page, Request } from 'playwright-core';

/** Long-lived streams never finish; a request pending this long no longer holds the page unsettled. */
const STALLED_MS = 2_000;
const LONG_LIVED = new Set(['websocket', 'eventsource']);

export class NetworkMonitor {
  private readonly inFlight = new Map<Request, number>();
  private lastActivity = Date.now();
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

  /** Resolves once nothing (but stalled requests) has been in flight for quietMs, or at the deadline. */
  async waitForQuiet(quietMs: number, deadline: number): Promise<boolean> {
    for (;;) {
      const now = Date.now();
      const busy = [...this.inFlight.values()].some((started) => now - started < STALLED_MS);
      if (!busy && now - this.lastActivity >= quietMs) return true;
      if (now >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - now))));
    }
  }

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('requestfinished', this.onDone);
    this.page.off('requestfailed', this.onDone);
  }
}
