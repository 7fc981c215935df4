// This process as a node of a cluster: its place in the registry, where a start goes, and the routing that
// lets any node answer any request: what another node owns is forwarded to it (HTTP as it streams,
// websockets message for message) on its internal URL, with the cluster secret and the project this node
// authenticated. Also the drain on SIGTERM.
import { createMiddleware } from 'hono/factory';
import type { MiddlewareHandler } from 'hono';
import { DeckhandError, isDeckhandError, type SessionManager, type SessionPage } from '@deckhand/core';
import type { RemoteSessions } from '@deckhand/mcp';
import { safeDecode } from '../cdp-proxy';
import { reject } from '../serve/adapter';
import type { ClusterConfig } from '../config';
import type { AppEnv } from '../env';
import type { Logger } from '../logger';
import type { UpgradeDecision } from '../serve/adapter';
import { clusterSecret } from './cluster-secret';
import { forwardRequest, OwnerUnreachable } from './forward';
import { INTERNAL_PREFIX, internalHeaders } from './keys';
import { NodeRegistry, type NodeLoss } from './node-registry';
import { openRemoteChannel } from './remote-channel';
import { remoteSessions, serveToolCall, TOOL_CALL_PATH } from './remote-tools';
import { clusterUnavailable, type RedisLink } from './redis';
import { listClusterSessions } from './session-list';
import { lostError, SessionRegistry, type RegisteredSession } from './session-registry';

/** A session's routes: `/v1/sessions/<id>` and anything under it (start is not a session id). */
const SESSION_PATH = /^\/v1\/sessions\/([^/]+)(\/.*)?$/;
/** Those a token opens instead of an API key: the owner checks the token. */
const TOKEN_PATH = /^\/v1\/sessions\/[^/]+\/(cdp|live|live\/state|live\/frame|live\/picture|devtools)$/;
/** A running session's owner, once read, is used for this long without asking Redis again (a client's next calls come in a burst). */
const OWNER_CACHE_MS = 1_000;
/** How often a drain looks whether operations are still running. */
const DRAIN_POLL_MS = 100;

export type Dispatch = (request: Request, env: AppEnv['Bindings']) => Response | Promise<Response>;

export interface ClusterNode {
  readonly nodeId: string;
  /** Announces the node and starts its heartbeat (once it listens, so its URL is known). */
  join(): void;
  /** The first middleware: a request on the internal URL with the secret is served as its inner request, trusted; without it, 401. */
  internalEntry(dispatch: Dispatch): MiddlewareHandler<AppEnv>;
  /** Before the public routes: a token route of a session another node owns goes to that node. */
  routeTokenRequest: MiddlewareHandler<AppEnv>;
  /** After authentication: a start goes where there is room, a session's request to its owner. */
  routeRequest: MiddlewareHandler<AppEnv>;
  /** A session started here (at the end of start): written to the registry, or 503 when Redis is down. */
  registerStart(sessionId: string, projectId: string): Promise<void>;
  /** A session of this node stopped, for whatever reason. */
  sessionStopped(sessionId: string, reason: string): void;
  /** Where a websocket upgrade goes: here (`local`), or over the internal URL to the session's owner. */
  routeUpgrade(pathAndQuery: string, header: (name: string) => string | undefined, local: (pathAndQuery: string) => UpgradeDecision): Promise<UpgradeDecision>;
  /** Why this node takes no new work (draining), else undefined. */
  notReady(): DeckhandError | undefined;
  /** Stops taking sessions and waits (up to the grace period) for running operations to finish. */
  drain(): Promise<void>;
  /** Leaves the registry (after its sessions ended). */
  leave(): Promise<void>;
  /** A page of the project's sessions on every node (GET /v1/sessions); 503 while Redis is down. */
  listSessions(projectId: string, page: { limit?: number; cursor?: string }): Promise<SessionPage>;
  /** Sessions other nodes hold, for the hosted MCP endpoint's `start {sessionId}`. */
  remoteSessions: RemoteSessions;
}

export interface ClusterNodeOptions {
  config: ClusterConfig;
  /** The longest a session lives (DECKHAND_MAX_SESSION_MS): how long the registry lists it. */
  maxSessionMs: number;
  redis: RedisLink;
  sessions: SessionManager;
  /** Sessions this node may hold (DECKHAND_MAX_SESSIONS). */
  capacity: number;
  logger: Logger;
  /** Called by the node that noticed another node's death, with the sessions it lost. */
  onNodeLost?: (loss: NodeLoss) => Promise<void>;
}

export function createClusterNode({ config, redis, sessions, capacity, maxSessionMs, logger, onNodeLost }: ClusterNodeOptions, selfUrl: () => string): ClusterNode {
  const secret = clusterSecret(config.secret);
  const load = () => registry.ownedCount + sessions.stats().starting;
  const nodes: NodeRegistry = new NodeRegistry(redis, { url: selfUrl, capacity, load, reclaim: () => registry.rewrite(), onNodeLost }, logger);
  const registry = new SessionRegistry(redis, { id: nodes.id, url: selfUrl, maxSessionMs });

  /** Running sessions' registry entries read in the last OWNER_CACHE_MS; a node's death is still seen at once (isDead reads the node view). */
  const recent = new Map<string, { entry: RegisteredSession; until: number }>();
  const lookup = async (sessionId: string): Promise<RegisteredSession | undefined> => {
    const cached = recent.get(sessionId);
    if (cached && cached.until > Date.now()) return cached.entry;
    const entry = await registry.lookup(sessionId);
    if (recent.size > 10_000) recent.clear();
    if (entry?.state === 'running') recent.set(sessionId, { entry, until: Date.now() + OWNER_CACHE_MS });
    else recent.delete(sessionId);
    return entry;
  };

  /** Whether this node answers for the session itself: it runs it, or it ended here (its tombstone says how). */
  const answersHere = (projectId: string, sessionId: string) => {
    try {
      sessions.get(projectId, sessionId);
      return true;
    } catch (error) {
      return isDeckhandError(error) && error.code === 'session_gone';
    }
  };

  /** The owner's URL for a session another node holds; 410 when the session or its node is gone. */
  const ownerUrlOf = (entry: RegisteredSession): string => {
    if (entry.state === 'lost') throw lostError(entry.id, entry.reason ?? 'its node stopped answering');
    if (entry.state === 'ended') {
      // Its node keeps what an ended session leaves (replay pictures) and answers what it still has,
      // else its own 410; once that node is gone (died or drained), the registry's word is final.
      const owner = nodes.isDead(entry.node) ? undefined : nodes.node(entry.node);
      if (owner) return owner.url;
      throw goneError(entry);
    }
    if (nodes.isDead(entry.node)) throw lostError(entry.id, `its node (${entry.node}) stopped answering`);
    // A node whose announcement expired is gone from the view before it is judged dead: until then, 503.
    const url = nodes.node(entry.node)?.url || entry.url;
    if (!url) throw clusterUnavailable(`the node that holds session ${entry.id} is not announced`);
    return url;
  };

  const forward = async (request: Request, body: ArrayBuffer | undefined, ownerUrl: string, projectId: string | undefined, what: string, owner?: string) => {
    try {
      return await forwardRequest(request, body, ownerUrl, projectId, secret);
    } catch (error) {
      if (!(error instanceof OwnerUnreachable)) {
        // The client went away while waiting: nobody reads this answer.
        if (request.signal.aborted) return new Response(null, { status: 499 });
        throw error;
      }
      logger.info('cluster forward failed', { to: owner ?? ownerUrl, detail: error.message });
      throw clusterUnavailable(`the node that holds ${what} did not answer`);
    }
  };

  const bodyOf = async (request: Request, read: () => Promise<ArrayBuffer>) => (request.method === 'GET' || request.method === 'HEAD' ? undefined : await read());

  return {
    nodeId: nodes.id,
    join: () => nodes.start(),

    internalEntry: (dispatch) =>
      createMiddleware<AppEnv>(async (c, next) => {
        const path = c.req.path;
        if (path !== INTERNAL_PREFIX && !path.startsWith(`${INTERNAL_PREFIX}/`)) return next();
        if (!secret.matches(c.req.header(internalHeaders.secret))) {
          throw new DeckhandError('unauthorized', 'This is the internal surface of a Deckhand cluster: only its nodes may call it');
        }
        const raw = c.req.raw;
        const url = new URL(raw.url);
        url.pathname = url.pathname.slice(INTERNAL_PREFIX.length) || '/';
        const headers = new Headers(raw.headers);
        for (const name of Object.values(internalHeaders)) headers.delete(name);
        const projectId = c.req.header(internalHeaders.project) || undefined;
        if (url.pathname === TOOL_CALL_PATH && raw.method === 'POST') return serveToolCall(sessions, raw, projectId);
        const inner = new Request(url, { method: raw.method, headers, body: raw.body, signal: raw.signal, duplex: 'half' } as RequestInit);
        return dispatch(inner, { ...c.env, internal: { projectId } });
      }),

    routeTokenRequest: createMiddleware<AppEnv>(async (c, next) => {
      if (c.env?.internal || !TOKEN_PATH.test(c.req.path)) return next();
      const sessionId = safeDecode(SESSION_PATH.exec(c.req.path)![1]!);
      // Redis down: this node answers what it can (its own sessions), as if alone.
      const entry = await lookup(sessionId).catch(() => undefined);
      if (!entry || entry.node === nodes.id) return next();
      if (entry.state === 'ended') {
        // Its node keeps an ended session's page (and its pictures) a while; once that node is gone,
        // the cluster's record of the ended session answers here.
        const owner = nodes.isDead(entry.node) ? undefined : nodes.node(entry.node);
        if (!owner) return next();
        return forward(c.req.raw, undefined, owner.url, undefined, `session ${sessionId}`, entry.node);
      }
      return forward(c.req.raw, undefined, ownerUrlOf(entry), undefined, `session ${sessionId}`, entry.node);
    }),

    routeRequest: createMiddleware<AppEnv>(async (c, next) => {
      const projectId = c.get('projectId');
      const path = c.req.path;
      if (path === '/v1/sessions/start') {
        // Redis down: a session started now could not be found by any other node.
        if (!redis.available) throw clusterUnavailable();
        if (nodes.draining) {
          if (c.env?.internal) throw clusterUnavailable('this node is shutting down');
        } else if (c.env?.internal || load() < capacity) {
          return next();
        }
        const target = nodes.leastLoaded();
        // No other node has room: this one answers (at its limit, a 429).
        if (!target) return nodes.draining ? Promise.reject(clusterUnavailable('no node has room for a session')) : next();
        return forward(c.req.raw, await bodyOf(c.req.raw, () => c.req.arrayBuffer()), target.url, projectId, 'the new session', target.id);
      }
      const match = SESSION_PATH.exec(path);
      if (c.env?.internal || !match) return next();
      const sessionId = safeDecode(match[1]!);
      if (answersHere(projectId, sessionId)) return next();
      const entry = await lookup(sessionId);
      // Unknown to the cluster, another project's, or this node's own: answered here (404 or 410).
      if (!entry || entry.project !== projectId || entry.node === nodes.id) return next();
      const answer = forward(c.req.raw, await bodyOf(c.req.raw, () => c.req.arrayBuffer()), ownerUrlOf(entry), projectId, `session ${sessionId}`, entry.node);
      return answer.catch(async (error: unknown) => {
        if (!isDeckhandError(error) || error.code !== 'cluster_unavailable') throw error;
        // An ended session's node that stopped answering (it left after a drain) took what it kept with it.
        if (entry.state === 'ended') throw goneError(entry);
        // The entry may be a cached one from before the session ended, or before its node was found dead and its sessions marked lost.
        recent.delete(sessionId);
        const now = await lookup(sessionId).catch(() => undefined);
        if (now?.state === 'ended') throw goneError(now);
        throw now?.state === 'lost' ? lostError(now.id, now.reason ?? 'its node stopped answering') : error;
      });
    }),

    registerStart: (sessionId, projectId) => registry.register(sessionId, projectId),

    sessionStopped(sessionId, reason) {
      void registry.stopped(sessionId, reason);
    },

    async routeUpgrade(pathAndQuery, header, local) {
      const url = new URL(pathAndQuery, 'http://deckhand.invalid');
      if (url.pathname.startsWith(`${INTERNAL_PREFIX}/`)) {
        if (!secret.matches(header(internalHeaders.secret))) {
          return reject(new DeckhandError('unauthorized', 'This is the internal surface of a Deckhand cluster: only its nodes may call it'));
        }
        return local(pathAndQuery.slice(INTERNAL_PREFIX.length));
      }
      const match = SESSION_PATH.exec(url.pathname);
      const entry = match ? await lookup(safeDecode(match[1]!)).catch(() => undefined) : undefined;
      if (!entry || entry.node === nodes.id) return local(pathAndQuery);
      try {
        const channel = await openRemoteChannel(ownerUrlOf(entry), pathAndQuery, secret);
        // The owner counts the socket against the project's cap (the token's project, which it checked).
        return { open: async () => channel, projectId: entry.project };
      } catch (error) {
        return reject(isDeckhandError(error) ? error : clusterUnavailable());
      }
    },

    notReady: () => (nodes.draining ? clusterUnavailable('this node is shutting down; the other nodes take new sessions') : undefined),

    async drain() {
      nodes.draining = true;
      await nodes.beat();
      const deadline = Date.now() + config.drainMs;
      while (Date.now() < deadline && sessions.stats().operations > 0) await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
      logger.info('drained: ending this node\'s sessions', { node: nodes.id });
    },

    async leave() {
      await registry.settled();
      await nodes.leave();
    },

    listSessions: (projectId, page) =>
      listClusterSessions(redis, projectId, page, (sessionId) => {
        try {
          return sessions.get(projectId, sessionId).state;
        } catch {
          return undefined;
        }
      }),

    remoteSessions: remoteSessions(async (projectId, sessionId) => {
      const entry = await lookup(sessionId);
      return !entry || entry.project !== projectId || entry.node === nodes.id ? undefined : ownerUrlOf(entry);
    }, secret),
  };
}

/** The 410 for a session that ended (the registry's reason). */
function goneError(entry: RegisteredSession): DeckhandError {
  return new DeckhandError('session_gone', `Session ${entry.id} has ended (${entry.reason ?? 'ended'})`);
}
