// What an operation gets from its session while it holds the session's turn.
import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { FrameId, LogLine, ReplayAction } from '../types.js';
import type { SessionSettings } from './session-settings.js';

export interface OpContext {
  signal: AbortSignal;
  log?: (line: LogLine) => void;
  /** Model key from this request's x-model-api-key header; wins over the session's. Never logged. */
  modelApiKey?: string;
  /** The client asked to skip the act cache (browserbase-cache-bypass: true). */
  cacheBypass?: boolean;
  /** Told whether a cached action answered (only when the cache was consulted). */
  onCacheStatus?: (status: 'HIT' | 'MISS') => void;
}

export interface OperationScope {
  signal: AbortSignal;
  /** Emits a line if the session's verbosity allows its level (default 1). */
  log(line: LogLine): void;
  context: BrowserContext;
  /** The active page when the operation started. */
  page: Page;
  settings: SessionSettings;
  /** Every value the session was sent as a variable, this request's included: masked in whatever is read back. */
  secrets: readonly string[];
  /** This operation's history record; the model layer fills tokenUsage. */
  record: ReplayAction;
  /** The frame a request's frameId names; empty/null/undefined is the active page's main frame. */
  frame(frameId: FrameId | undefined): Promise<Frame>;
  /** The CDP id of a frame, as clients send it back. */
  frameIdOf(frame: Frame): Promise<string | undefined>;
}
