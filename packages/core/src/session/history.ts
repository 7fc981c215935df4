// What replay returns: the pages a session visited and the operations run on each. Parameters and
// results are kept as bounded plain-JSON copies (replayable.ts), so replay answers whatever was recorded.
import type { ReplayAction, ReplayPage, ReplayResult } from '../types.js';
import { replayable } from './replayable.js';

interface PageVisit {
  url: string;
  timestamp: number;
  actions: ReplayAction[];
}

export class SessionHistory {
  private readonly visits: PageVisit[] = [];

  /** Starts recording an operation on the page at `url`. The record stays mutable (tokenUsage). */
  begin(method: string, parameters: unknown, url: string): ReplayAction {
    const record: ReplayAction = { method, parameters: replayable(parameters), result: null, timestamp: Date.now() };
    this.visitAt(url, record.timestamp).actions.push(record);
    return record;
  }

  /** Completes a record; a page the operation led to starts a new visit. */
  finish(record: ReplayAction, result: unknown, url: string): void {
    record.result = replayable(result);
    record.endTime = Date.now();
    this.visitAt(url, record.endTime);
  }

  replay(now = Date.now()): ReplayResult {
    const pages: ReplayPage[] = this.visits.map((visit, index) => ({
      url: visit.url,
      timestamp: visit.timestamp,
      duration: (this.visits[index + 1]?.timestamp ?? now) - visit.timestamp,
      actions: visit.actions.map((action) => ({ ...action })),
    }));
    return { pages };
  }

  private visitAt(url: string, timestamp: number): PageVisit {
    const last = this.visits.at(-1);
    if (last && last.url === url) return last;
    const visit: PageVisit = { url, timestamp, actions: [] };
    this.visits.push(visit);
    return visit;
  }
}
