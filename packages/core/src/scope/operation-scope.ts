// What an operation gets from its session while it holds the session's turn: one deadline, the page,
// the session's settings and secrets, its history record, the model key and the act cache it may use.
import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { ActCaches } from '../cache/index.js';
import type { CoreConfig } from '../config.js';
import type { NavigationPolicy } from '../network/network-policy.js';
import type { PolicyProxy } from '../network/policy-proxy.js';
import type { AgentCacheEntryOutput, FrameId, LogLine, ReplayAction } from '../types.js';
import type { Deadline } from './deadline.js';
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
  /** Hears the agent cache entry of an agentExecute run with shouldCache (handed back to the client). */
  onCacheEntry?: (entry: AgentCacheEntryOutput) => void;
}

export interface CacheUse {
  cache: ActCaches;
  /** The session's project: the only entries its operations read or write (act and agent caches). */
  project: string;
  onStatus?: (status: 'HIT' | 'MISS') => void;
}

/** Where the session's browser may go: the policy, and the proxy enforcing it when Deckhand launched the browser. */
export interface NavigationGuard {
  policy: NavigationPolicy;
  proxy?: PolicyProxy;
}

export interface OperationScope {
  /** The operation's one clock, made when it took the session's turn: every wait inside asks it. */
  deadline: Deadline;
  /** The deadline's signal: aborts on its timeout or when the caller gives up. */
  signal: AbortSignal;
  /** Emits a line if the session's verbosity allows its level (default 1). */
  log(line: LogLine): void;
  context: BrowserContext;
  /** The active page when the operation started. */
  page: Page;
  /** Makes another open page the active one from the next operation on (the tabs tool). */
  activate(page: Page): void;
  /** The session's project directory (a real path): the only place files handed to the page may be. */
  projectDir(): Promise<string>;
  /** Lets Chromium (running as the browser user) read a checked file of the project. */
  shareFile(path: string): Promise<void>;
  /** The paths of files sent to the session (uploadFile), by name, readable by Chromium; file_not_found for a name it was not sent. */
  uploadedFiles(names: string[]): Promise<string[]>;
  settings: SessionSettings;
  /** The server's configuration: model environment and the executor's tuning. */
  config: CoreConfig;
  /** This request's model key, else the session's; a per-call model.apiKey still wins. Never logged. */
  modelApiKey?: string;
  navigation: NavigationGuard;
  /** The act cache, unless the session turned it off or the request asked to skip it. */
  cache?: CacheUse;
  /** OpContext.onCacheEntry: where an agent run with shouldCache hands its cache entry. */
  onCacheEntry?: (entry: AgentCacheEntryOutput) => void;
  /** Every value the session was sent as a variable, this request's included: masked in whatever is read back. */
  secrets: readonly string[];
  /** This operation's history record; the model layer fills tokenUsage. */
  record: ReplayAction;
  /** The frame a request's frameId names; empty/null/undefined is the active page's main frame. */
  frame(frameId: FrameId | undefined): Promise<Frame>;
  /** The CDP id of a frame, as clients send it back. */
  frameIdOf(frame: Frame): Promise<string | undefined>;
}
