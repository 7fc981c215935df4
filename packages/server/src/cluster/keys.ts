// Every Redis key and internal header the nodes of one service share, in one place (docs/decisions.md,
// Cluster, describes each). Nothing else spells a key.

const PREFIX = 'deckhand:';

export const keys = {
  /** ZSET: node id → the time (ms since the epoch) its heartbeat expires; the live nodes are those with a score in the future. */
  nodes: `${PREFIX}nodes`,
  /** HASH of one node: url, capacity, load, draining ("1"/"0"), startedAt; expires with its heartbeat. */
  node: (nodeId: string) => `${PREFIX}node:${nodeId}`,
  /** SET: the ids of the sessions a node owns (what to mark lost when it dies). */
  nodeSessions: (nodeId: string) => `${PREFIX}node-sessions:${nodeId}`,
  /** HASH of one session: node, url (the owner's internal URL), project, state, startedAt, updatedAt, endedAt, reason. */
  session: (sessionId: string) => `${PREFIX}session:${sessionId}`,
  /** ZSET of one project: session id → its start (ms since the epoch); what GET /v1/sessions lists, trimmed as its sessions' hashes expire. */
  projectSessions: (projectId: string) => `${PREFIX}project-sessions:${projectId}`,
  /** String, SET NX with an expiry: the node sweeping dead nodes' sessions now (one at a time). */
  sweepLock: `${PREFIX}sweep-lock`,
  /** ZSET of one project: slot id → the time (ms, Redis clock) it expires unless its node renews it; one member per live session. */
  projectSlots: (projectId: string) => `${PREFIX}project-slots:${projectId}`,
  /** HASH of one project's request rate (token bucket): tokens, at (ms, Redis clock); expires once full again. */
  projectRate: (projectId: string) => `${PREFIX}rate:${projectId}`,
  /** String: one signed act or agent cache entry, named `<kind>/<project digest>/<key>`; expires unless written again. */
  cacheEntry: (name: string) => `${PREFIX}cache:${name}`,
  /** String, SET NX: a digest of the first node's cache secret, so a node with another one says so. */
  cacheSecretId: `${PREFIX}cache-secret-id`,
  /** String: an ended session's record for its live page (project, state, address, title, actions, last picture); expires. */
  endedSession: (sessionId: string) => `${PREFIX}ended:${sessionId}`,
  /** HASH of one hosted MCP session (2025-11-25 Mcp-Session-Id): project, node (its URL), session (the browser session it drives). */
  mcpSession: (mcpSessionId: string) => `${PREFIX}mcp-session:${mcpSessionId}`,
} as const;

/** A session's state in the registry: running on its node, ended (by end, idle, crash), or lost with its node. */
export type RegisteredState = 'running' | 'ended' | 'lost';

/** Internal requests: a forwarding node sends the client's request to `<owner url><INTERNAL_PREFIX><path>` with these headers. */
export const INTERNAL_PREFIX = '/_cluster';
export const internalHeaders = {
  /** The cluster secret (compared in constant time); without it the internal surface answers 401. */
  secret: 'x-deckhand-cluster-secret',
  /** The project the receiving node authenticated; only ever read on an internal request. */
  project: 'x-deckhand-project',
  /** The origin the client reached (URLs handed out are built on it): the receiving node's public URL. */
  origin: 'x-deckhand-origin',
} as const;
