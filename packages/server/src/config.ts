// Server configuration, read once from the environment at the edge and passed down.
import { readFileSync } from 'node:fs';
import { DeckhandError, DEFAULT_CORE_CONFIG, DEFAULT_MODEL, envInteger } from '@deckhand/core';

export interface ServerConfig {
  host: string;
  port: number;
  /** API key → project id. Empty: unauthenticated use, allowed only on loopback. */
  apiKeys: Map<string, string>;
  /** Limits of each configured project: what its keys say, else the server-wide defaults. */
  projectLimits: Map<string, ProjectLimits>;
  /** Limits of a project no key names (the open project of a keyless server). */
  defaultProjectLimits: ProjectLimits;
  bodyLimitBytes: number;
  /** A request body (a JSON body, a file sent to a session) must arrive whole within this, the deadline of an operation (DECKHAND_DEFAULT_TIMEOUT_MS). */
  bodyDeadlineMs: number;
  /** Interval of the SSE comment heartbeat. */
  heartbeatMs: number;
  logLevel: LogLevel;
  /** Base URL clients reach the server at, for the URLs it hands out; else each request's own. */
  publicUrl?: string;
  /** DevTools websockets (cdpUrl, debugUrl) one project may hold open at once; 0: no cap. */
  relaySocketsPerProject: number;
  mcp: McpConfig;
  live: LiveConfig;
  /** Many nodes on one Redis (DECKHAND_REDIS_URL); absent: one process, everything in memory. */
  cluster?: ClusterConfig;
}

/** A node of a cluster. The secret authenticates nodes to each other and signs what every node must verify. */
export interface ClusterConfig {
  redisUrl: string;
  /** Where the other nodes reach this one (DECKHAND_NODE_URL); absent: http://<HOST>:<PORT>, known once listening. */
  nodeUrl?: string;
  secret: string;
  /** On SIGTERM, how long running operations may take to finish before the node's sessions are ended (DECKHAND_DRAIN_MS). */
  drainMs: number;
  /** How long a forwarded request may wait for the owner to take it (connect and first byte; DECKHAND_FORWARD_DEADLINE_MS). */
  forwardDeadlineMs: number;
}

/** The live page's pictures: each is a screenshot, so how many may be taken at once is bounded (0: no bound). */
export interface LiveConfig {
  framesPerSession: number;
  framesPerProject: number;
}

/** The hosted MCP endpoint (/mcp). */
export interface McpConfig {
  /** The model of a client that names none (DECKHAND_MCP_MODEL); any other needs the client's modelApiKey. */
  modelName: string;
  /** An MCP session with no request for this long closes, ending its browser session unless keepAlive. */
  idleMs: number;
  /** The operator's proxy for proxies=true (DECKHAND_PROXY_URL); without one proxies=true is refused. */
  proxyUrl?: string;
  /** Per project: MCP sessions open at once (DECKHAND_MCP_MAX_SESSIONS) and opened a second (DECKHAND_MCP_INIT_RATE); 0: none. */
  maxSessions: number;
  openRate: number;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Project of every session when the server runs without keys. */
export const OPEN_PROJECT = 'local';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Per-project limits; an absent limit means none beyond the server-wide ones. */
export interface ProjectLimits {
  /** Live sessions of the project at once. */
  maxSessions?: number;
  /** Requests per second of the project, averaged (bursts of up to two seconds' worth pass). */
  rate?: number;
}

export interface ApiKeyEntry {
  key: string;
  projectId: string;
  /** Limits this entry sets for its project; 0 means none. */
  limits: ProjectLimits;
}

const LIMIT_SEGMENT = /^(sessions|rate)=/;
const KEY_FORMAT = 'API keys must be "key:projectId" pairs, optionally followed by ":sessions=N" and ":rate=R" (DECKHAND_API_KEYS / DECKHAND_API_KEYS_FILE)';

/**
 * Parses `key:projectId[:sessions=N][:rate=R]` entries separated by commas or newlines; `#` starts a
 * comment line. The key may itself hold colons; the project id is the last segment before the limits.
 * Messages never repeat a key.
 */
export function parseApiKeys(text: string): ApiKeyEntry[] {
  const entries: ApiKeyEntry[] = [];
  for (const raw of text.split(/[,\n]/)) {
    const entry = raw.trim();
    if (!entry || entry.startsWith('#')) continue;
    const segments = entry.split(':');
    const limits: ProjectLimits = {};
    while (segments.length > 2 && LIMIT_SEGMENT.test(segments.at(-1)!)) setLimit(limits, segments.pop()!);
    const projectId = segments.pop() ?? '';
    const key = segments.join(':');
    if (!key || !projectId) throw new DeckhandError('validation_error', KEY_FORMAT);
    entries.push({ key, projectId, limits });
  }
  return entries;
}

function setLimit(limits: ProjectLimits, segment: string): void {
  const [name, raw = ''] = segment.split('=') as ['sessions' | 'rate', string];
  const field = name === 'sessions' ? 'maxSessions' : 'rate';
  const value = limitValue(raw, name === 'sessions');
  if (value === undefined || limits[field] !== undefined) {
    throw new DeckhandError('validation_error', `${KEY_FORMAT}; "${name}" must be given once, as ${name === 'sessions' ? 'an integer' : 'a number'} of at least 0 (0: no limit)`);
  }
  limits[field] = value;
}

/** A limit of at least 0 (a whole number when `integer`), or undefined when malformed. */
function limitValue(raw: string, integer: boolean): number | undefined {
  const value = raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 && (!integer || Number.isInteger(value)) ? value : undefined;
}

/** A server-wide default limit from the environment: 0 or absent-with-no-fallback means none. */
function envLimit(env: Record<string, string | undefined>, name: string, fallback: number, integer: boolean): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = limitValue(raw, integer);
  if (value === undefined) throw new DeckhandError('validation_error', `${name} must be ${integer ? 'an integer' : 'a number'} of at least 0 (0: no limit), got "${raw}"`);
  return value;
}

/** 0 means no limit. */
function limitsWithout0({ maxSessions, rate }: ProjectLimits): ProjectLimits {
  return { ...(maxSessions ? { maxSessions } : {}), ...(rate ? { rate } : {}) };
}

/** Each project's limits: set on any of its keys (two keys may not disagree), else the defaults. */
function limitsPerProject(entries: ApiKeyEntry[], defaults: ProjectLimits): Map<string, ProjectLimits> {
  const given = new Map<string, ProjectLimits>();
  for (const { projectId, limits } of entries) {
    const merged = { ...given.get(projectId) };
    for (const field of ['maxSessions', 'rate'] as const) {
      const value = limits[field];
      if (value === undefined) continue;
      if (merged[field] !== undefined && merged[field] !== value) {
        throw new DeckhandError('validation_error', `The keys of project "${projectId}" set different ${field === 'rate' ? 'rate' : 'sessions'} limits`);
      }
      merged[field] = value;
    }
    given.set(projectId, merged);
  }
  return new Map([...given].map(([projectId, limits]) => [projectId, limitsWithout0({ ...defaults, ...limits })]));
}

/** The limits a project's requests and sessions are held to. */
export function limitsOf(config: ServerConfig, projectId: string): ProjectLimits {
  return config.projectLimits.get(projectId) ?? config.defaultProjectLimits;
}

export function loadServerConfig(env: Record<string, string | undefined>): ServerConfig {
  const host = env.HOST || '127.0.0.1';
  const entries = [
    ...parseApiKeys(env.DECKHAND_API_KEYS ?? ''),
    ...(env.DECKHAND_API_KEYS_FILE ? parseApiKeys(readFileSync(env.DECKHAND_API_KEYS_FILE, 'utf8')) : []),
  ];
  const apiKeys = new Map(entries.map(({ key, projectId }) => [key, projectId]));
  // A shared server (keys configured) limits each project by default; one developer's open server does not.
  const shared = apiKeys.size > 0;
  const defaultProjectLimits: ProjectLimits = {
    maxSessions: envLimit(env, 'DECKHAND_PROJECT_MAX_SESSIONS', shared ? 4 : 0, true),
    rate: envLimit(env, 'DECKHAND_PROJECT_RATE', shared ? 20 : 0, false),
  };
  if (apiKeys.size === 0 && !isLoopback(host)) {
    throw new DeckhandError(
      'unauthorized',
      `Refusing to listen on ${host} without API keys: set DECKHAND_API_KEYS (key:projectId,...) or bind to 127.0.0.1`,
    );
  }
  const logLevel = (env.DECKHAND_LOG_LEVEL || 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new DeckhandError('validation_error', 'DECKHAND_LOG_LEVEL must be debug, info, warn or error');
  }
  const publicUrl = env.DECKHAND_PUBLIC_URL || undefined;
  if (publicUrl && !/^https?:\/\/[^/]/.test(publicUrl)) {
    throw new DeckhandError('validation_error', 'DECKHAND_PUBLIC_URL must be an http(s) URL, such as https://deckhand.example.com');
  }
  return {
    host,
    port: envInteger(env, 'PORT', 3000, 0),
    cluster: clusterConfig(env),
    apiKeys,
    projectLimits: limitsPerProject(entries, defaultProjectLimits),
    defaultProjectLimits: limitsWithout0(defaultProjectLimits),
    bodyLimitBytes: envInteger(env, 'DECKHAND_BODY_LIMIT_BYTES', 4 * 1024 * 1024),
    bodyDeadlineMs: envInteger(env, 'DECKHAND_DEFAULT_TIMEOUT_MS', DEFAULT_CORE_CONFIG.defaultTimeoutMs),
    heartbeatMs: envInteger(env, 'DECKHAND_SSE_HEARTBEAT_MS', 15_000),
    logLevel,
    publicUrl,
    relaySocketsPerProject: envLimit(env, 'DECKHAND_PROJECT_RELAY_SOCKETS', 32, true),
    mcp: {
      modelName: env.DECKHAND_MCP_MODEL || DEFAULT_MODEL,
      idleMs: envInteger(env, 'DECKHAND_MCP_IDLE_MS', 10 * 60_000, 1),
      proxyUrl: env.DECKHAND_PROXY_URL || undefined,
      maxSessions: envLimit(env, 'DECKHAND_MCP_MAX_SESSIONS', 16, true),
      openRate: envLimit(env, 'DECKHAND_MCP_INIT_RATE', 5, false),
    },
    live: {
      framesPerSession: envLimit(env, 'DECKHAND_LIVE_FRAMES_PER_SESSION', 2, true),
      framesPerProject: envLimit(env, 'DECKHAND_LIVE_FRAMES_PER_PROJECT', 8, true),
    },
  };
}

/** Shortest DECKHAND_CLUSTER_SECRET accepted: it is the whole of what keeps clients off the internal surface. */
const MIN_SECRET_LENGTH = 32;

/** The cluster settings, only with DECKHAND_REDIS_URL; messages never repeat the URL (it may hold a password) or the secret. */
function clusterConfig(env: Record<string, string | undefined>): ClusterConfig | undefined {
  const redisUrl = env.DECKHAND_REDIS_URL || undefined;
  const secret = env.DECKHAND_CLUSTER_SECRET || '';
  const nodeUrl = env.DECKHAND_NODE_URL || undefined;
  if (!redisUrl) {
    if (secret || nodeUrl) throw new DeckhandError('validation_error', 'DECKHAND_CLUSTER_SECRET and DECKHAND_NODE_URL only mean something with DECKHAND_REDIS_URL');
    return undefined;
  }
  if (!/^rediss?:\/\/[^/]/.test(redisUrl)) throw new DeckhandError('validation_error', 'DECKHAND_REDIS_URL must be a redis:// or rediss:// URL');
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new DeckhandError('validation_error', `DECKHAND_CLUSTER_SECRET is required with DECKHAND_REDIS_URL, at least ${MIN_SECRET_LENGTH} characters, the same on every node (e.g. openssl rand -hex 32)`);
  }
  if (nodeUrl && !/^https?:\/\/[^/]+\/?$/.test(nodeUrl)) {
    throw new DeckhandError('validation_error', 'DECKHAND_NODE_URL must be an http(s) origin the other nodes reach this one at, such as http://10.0.0.5:3000');
  }
  return { redisUrl, secret, drainMs: envInteger(env, 'DECKHAND_DRAIN_MS', 30_000), forwardDeadlineMs: envInteger(env, 'DECKHAND_FORWARD_DEADLINE_MS', 5_000), ...(nodeUrl ? { nodeUrl: nodeUrl.replace(/\/$/, '') } : {}) };
}
