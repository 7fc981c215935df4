// Core configuration: read once at the edge (env, CLI) into this typed object and passed down.
import { resolve } from 'node:path';
import { OPEN_LOOPBACK_POLICY, parsePolicyRules, type NavigationPolicy } from './network/network-policy.js';
import { cacheDirFromEnv } from './cache/act-cache.js';
import type { SharedEntries } from './cache/shared-entries.js';
import { DeckhandError } from './errors.js';
import type { ModelEnv } from './models/model-config.js';
import { maxSessionsFor, memoryLimitBytes } from './host/session-capacity.js';
import { browserIdentityFromEnv, type BrowserIdentity } from './host/browser-user.js';

export interface CoreConfig {
  /** Live sessions allowed at once, across all projects. */
  maxSessions: number;
  /** A session with no operation for this long is ended (state expired). */
  idleTimeoutMs: number;
  /** Absolute lifetime of a session. */
  maxSessionMs: number;
  /** Chromium binary; auto-detected when absent. */
  chromiumPath?: string;
  /** Default for sessions that do not say; launchOptions.headless wins. */
  headless: boolean;
  /** Ended session ids remembered (so later calls get 410, not 404). */
  tombstoneLimit: number;
  /** How long an action waits for its target to appear and become actionable. */
  actionabilityTimeoutMs: number;
  /**
   * After an action, once nothing it started is pending, the DOM must have stopped changing this long
   * before the next operation reads the page (dom/settle.ts).
   */
  settleQuietMs: number;
  /** Settle bound when the start request has no domSettleTimeoutMs. */
  defaultDomSettleTimeoutMs: number;
  /** Deadline of an act, observe or extract whose request gives no timeout: none runs unbounded. */
  defaultTimeoutMs: number;
  /** Deadline of an agentExecute run (the request has no timeout of its own); steps are bounded by toolTimeout. */
  agentTimeoutMs: number;
  /** The server's model-related environment (keys, endpoints, cloud settings), captured once. */
  modelEnv: ModelEnv;
  /** Act cache directory; the empty string keeps the cache in memory only. */
  cacheDir: string;
  /** Act cache entries kept in memory (the disk holds all). */
  cacheMaxEntries: number;
  /** Signs cache entries (DECKHAND_CACHE_SECRET); unset, a secret is made once and kept in cacheDir. Never logged. */
  cacheSecret?: string;
  /** A cluster's shared store of act and agent entries (Redis), in place of cacheDir; set by the server, never from the environment. */
  sharedCache?: SharedEntries;
  /** Hosts (`host` or `host:port`, `*` for any) a session may attach to with browser.cdpUrl. */
  cdpAttachHosts: string[];
  /** Client-chosen profiles and downloads live under <dataDir>/<project>/ and nowhere else. */
  dataDir: string;
  /** Pictures a session's replay keeps, one per operation (DECKHAND_REPLAY_PICTURES; 0: none). */
  replayPictures: number;
  /** Where session browsers may connect: enforced by navigate and by each launched browser's proxy. */
  navigationPolicy: NavigationPolicy;
  /** The agent's web search (useSearch); none configured makes useSearch a 400. */
  search?: SearchProvider;
  /** Browsers launched ahead of need (0: none); see browser/provider/warm-pool.ts. */
  poolSize: number;
  /** A pooled browser older than this is replaced (0: kept however old). */
  poolMaxAgeMs: number;
  /** Sessions of one project sharing one browser as contexts; 1 gives every session a browser of its own. */
  contextsPerBrowser: number;
  /** Who Chromium runs as and whether its sandbox is on (host/browser-user.ts). */
  browserIdentity: BrowserIdentity;
  /** V8 heap limit of each renderer in MiB (0: Chromium's own, about 4 GiB), so one page cannot hold gigabytes. */
  pageHeapMb: number;
  /** Bytes one project's downloads and profiles may hold on disk (0: no limit); see browser/project-data/project-disk-quota.ts. */
  projectDiskBytes: number;
  /** Operations one session may hold, running or waiting for their turn; past it a new one is a 429. */
  sessionQueueMax: number;
}

/** A web search provider: a SearXNG instance (its JSON API), or Brave Search with its key. */
export type SearchProvider = { kind: 'searxng'; url: string } | { kind: 'brave'; url: string; apiKey: string };

export const BRAVE_SEARCH_URL = 'https://api.search.brave.com/res/v1/web/search';

/** DECKHAND_SEARCH_URL (SearXNG) wins; else BRAVE_SEARCH_API_KEY (DECKHAND_BRAVE_SEARCH_URL overrides its endpoint). */
export function searchProviderFromEnv(env: Record<string, string | undefined>): SearchProvider | undefined {
  if (env.DECKHAND_SEARCH_URL) return { kind: 'searxng', url: env.DECKHAND_SEARCH_URL };
  if (env.BRAVE_SEARCH_API_KEY) return { kind: 'brave', url: env.DECKHAND_BRAVE_SEARCH_URL || BRAVE_SEARCH_URL, apiKey: env.BRAVE_SEARCH_API_KEY };
  return undefined;
}

const MIB = 1024 * 1024;

export const DEFAULT_CORE_CONFIG: CoreConfig = {
  maxSessions: 16,
  idleTimeoutMs: 10 * 60_000,
  maxSessionMs: 60 * 60_000,
  headless: true,
  tombstoneLimit: 10_000,
  actionabilityTimeoutMs: 3_000,
  settleQuietMs: 20,
  defaultDomSettleTimeoutMs: 10_000,
  defaultTimeoutMs: 120_000,
  agentTimeoutMs: 10 * 60_000,
  modelEnv: {},
  cacheDir: '',
  cacheMaxEntries: 1_000,
  cdpAttachHosts: ['*'],
  dataDir: '.deckhand/data',
  replayPictures: 200,
  navigationPolicy: OPEN_LOOPBACK_POLICY,
  // The core's own default launches nothing ahead of need; the server's (from the env) keeps one warm.
  poolSize: 0,
  poolMaxAgeMs: 30 * 60_000,
  contextsPerBrowser: 50,
  browserIdentity: { sandbox: false, summary: 'Chromium runs as this user; sandbox off' },
  pageHeapMb: 1024,
  projectDiskBytes: 1024 * MIB,
  sessionQueueMax: 8,
};

/**
 * What the server tells the core about itself. A shared service (API keys configured) is locked down:
 * no loopback or private destinations, no attaching by cdpUrl. Unsaid means shared.
 */
export interface ServiceMode {
  shared: boolean;
}

/** What the model layer may read: provider keys and endpoints, cloud credentials, nothing else. */
const MODEL_ENV = /(_API_KEY|_BASE_URL)$|^(AWS|GOOGLE|GEMINI|VERTEX|AZURE|OLLAMA|LMSTUDIO|OPENAI|ANTHROPIC|OPENROUTER)_/;

export function loadCoreConfigFromEnv(env: Record<string, string | undefined>, mode: ServiceMode = { shared: true }): CoreConfig {
  const chromiumPath = env.DECKHAND_CHROMIUM_PATH || undefined;
  return {
    ...DEFAULT_CORE_CONFIG,
    maxSessions: envInteger(env, 'DECKHAND_MAX_SESSIONS', maxSessionsFor(memoryLimitBytes())),
    idleTimeoutMs: envInteger(env, 'DECKHAND_IDLE_TIMEOUT_MS', DEFAULT_CORE_CONFIG.idleTimeoutMs),
    maxSessionMs: envInteger(env, 'DECKHAND_MAX_SESSION_MS', DEFAULT_CORE_CONFIG.maxSessionMs),
    defaultTimeoutMs: envInteger(env, 'DECKHAND_DEFAULT_TIMEOUT_MS', DEFAULT_CORE_CONFIG.defaultTimeoutMs),
    agentTimeoutMs: envInteger(env, 'DECKHAND_AGENT_TIMEOUT_MS', DEFAULT_CORE_CONFIG.agentTimeoutMs),
    chromiumPath,
    headless: !['false', '0', 'no'].includes((env.DECKHAND_HEADLESS ?? '').toLowerCase()),
    modelEnv: Object.fromEntries(Object.entries(env).filter(([name, value]) => value !== undefined && MODEL_ENV.test(name))),
    cacheDir: cacheDirFromEnv(env),
    cacheMaxEntries: envInteger(env, 'DECKHAND_CACHE_MAX_ENTRIES', DEFAULT_CORE_CONFIG.cacheMaxEntries),
    cacheSecret: env.DECKHAND_CACHE_SECRET || undefined,
    cdpAttachHosts: envList(env, 'DECKHAND_CDP_ATTACH_HOSTS') ?? (mode.shared ? [] : ['*']),
    dataDir: resolve(env.DECKHAND_DATA_DIR || DEFAULT_CORE_CONFIG.dataDir),
    replayPictures: envInteger(env, 'DECKHAND_REPLAY_PICTURES', DEFAULT_CORE_CONFIG.replayPictures, 0),
    navigationPolicy: {
      allow: parsePolicyRules(env.DECKHAND_NAV_ALLOW ?? '', 'DECKHAND_NAV_ALLOW'),
      deny: parsePolicyRules(env.DECKHAND_NAV_DENY ?? '', 'DECKHAND_NAV_DENY'),
      localNetworks: mode.shared ? 'deny' : 'allow',
    },
    search: searchProviderFromEnv(env),
    poolSize: envInteger(env, 'DECKHAND_POOL_SIZE', 1, 0),
    poolMaxAgeMs: envInteger(env, 'DECKHAND_POOL_MAX_AGE_MS', DEFAULT_CORE_CONFIG.poolMaxAgeMs, 0),
    contextsPerBrowser: envInteger(env, 'DECKHAND_CONTEXTS_PER_BROWSER', DEFAULT_CORE_CONFIG.contextsPerBrowser),
    browserIdentity: browserIdentityFromEnv(env, chromiumPath),
    pageHeapMb: envInteger(env, 'DECKHAND_PAGE_HEAP_MB', DEFAULT_CORE_CONFIG.pageHeapMb, 0),
    projectDiskBytes: envInteger(env, 'DECKHAND_PROJECT_DISK_MB', DEFAULT_CORE_CONFIG.projectDiskBytes / MIB, 0) * MIB,
    sessionQueueMax: envInteger(env, 'DECKHAND_SESSION_QUEUE_MAX', DEFAULT_CORE_CONFIG.sessionQueueMax),
  };
}

/** An integer setting from the environment, at least `min`; absent or empty means the fallback. */
export function envInteger(env: Record<string, string | undefined>, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new DeckhandError('validation_error', `${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  return value;
}

/** A comma-separated list from the environment, lower-cased; absent means undefined, empty means []. */
function envList(env: Record<string, string | undefined>, name: string): string[] | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  return raw.split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean);
}
