// This process as a node of a cluster: its place in the registry, where a start goes, and the routing that
// lets any node answer any request: what another node owns is forwarded to it (HTTP as it streams,
// websockets message for message) on its internal URL, with the cluster secret and the project this node
// authenticated. Also the drain on SIGTERM.
import { createMiddleware } from 'hono/factory';
import type { HonoRequest, MiddlewareHandler } from 'hono';
import { DeckhandError, isDeckhandError, type SessionManager, type SessionPage } from '@deckhand/core';
import type { RemoteSessions } from '@deckhand/mcp';
import { safeDecode } from '../cdp-proxy';
import { reject } from '../serve/adapter';
import type { ClusterConfig } from '../config';
import type { AppEnv } from '../env';
import type { Logger } from '../logger';
import type { UpgradeDecision } from '../serve/adapter';
import { clusterSecret } from './cluster-secret';
import { forwardRequest, ownerUnavailable, OwnerUnreachable } from './forward';
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
/** A running session's owner, once read, is used for this long without asking Redis again (a client's calls come in bursts). */
const OWNER_CACHE_MS = 10_000;
const isInternal = (path: string) => path === INTERNAL_PREFIX || path.startsWith(`${INTERNAL_PREFIX}/`);

/** The path a request is routed on: an internal request (its env says so, set only by internalEntry) without the prefix. */
export function innerPath(path: string, env: AppEnv['Bindings'] | undefined): string {
  return env?.internal ? path.slice(INTERNAL_PREFIX.length) || '/' : path;
}

/** How often a drain looks whether operations are still running. */
const DRAIN_POLL_MS = 100;

export type Dispatch = (request: Request, env: AppEnv['Bindings']) => Response | Promise<Response>;

export interface ClusterNode {
  readonly nodeId: string;
  /** Announces the node and starts its heartbeat (once it listens, so its URL is known). */
  join(): void;
  /** The first middleware: a request on the internal URL with the secret is served again as its inner request, trusted. */
  internalEntry(dispatch: Dispatch): MiddlewareHandler<AppEnv>;
  /** After the request id: anything else on the internal URL is 401. */
  refuseInternal: MiddlewareHandler<AppEnv>;
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

  /**
   * Running sessions' registry entries read in the last OWNER_CACHE_MS, trusted only while their owner's
   * heartbeat is live in this node's view: a node that died or left is read again (and judged) at once,
   * and a forward its owner does not answer reads the registry again before answering (see `forward`).
   */
  const recent = new Map<string, { entry: RegisteredSession; until: number }>();
  const lookup = async (sessionId: string): Promise<RegisteredSession | undefined> => {
    const cached = recent.get(sessionId);
    const now = Date.now();
    // With Redis down the view of the nodes stops moving: nothing cached is trusted (a forward is 503, as documented).
    if (cached && redis.available && cached.until > now && (nodes.node(cached.entry.node)?.expiresAt ?? 0) > now) return cached.entry;
    const entry = await registry.lookup(sessionId);
    if (recent.size > 10_000) recent.clear();
    if (entry?.state === 'running') recent.set(sessionId, { entry, until: Date.now() + OWNER_CACHE_MS });
    else recent.delete(sessionId);
    return entry;
  };

  /** Whether this node answers for the session itself: it runs it, or it ended here (its tombstone says how). */
  const answersHere = (projectId: string, sessionId: string) => sessions.whereIs(projectId, sessionId) !== undefined;

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

  /** Sends the request to another node; `sessionId` when the target was its owner, as read from the registry (perhaps cached). */
  const forward = async (request: Request, body: Uint8Array | undefined, target: { url: string; id: string }, projectId: string | undefined, what: string, sessionId?: string) => {
    try {
      const answer = await forwardRequest(request, body, target.url, projectId, secret, config.forwardDeadlineMs);
      // The owner no longer knows it or says it ended: the next request reads the registry.
      if (sessionId && (answer.status === 404 || answer.status === 410)) recent.delete(sessionId);
      return answer;
    } catch (error) {
      if (!(error instanceof OwnerUnreachable)) {
        // The client went away while waiting: nobody reads this answer.
        if (request.signal.aborted) return new Response(null, { status: 499 });
        throw error;
      }
      logger.info('cluster forward failed', { to: target.id, detail: error.message });
      if (sessionId) {
        // The owner may have left (drained) or died since it was read: the registry's word decides (410).
        recent.delete(sessionId);
        const fresh = await registry.lookup(sessionId).catch(() => undefined);
        if (fresh?.state === 'ended') throw goneError(fresh);
        if (fresh && fresh.state !== 'running') ownerUrlOf(fresh);
      }
      throw ownerUnavailable(what, error);
    }
  };

  /** The body to send on: a JSON body as the text this node already read (and bounded), any other as its bytes. */
  const bodyOf = async (req: HonoRequest): Promise<Uint8Array | undefined> => {
    if (req.method === 'GET' || req.method === 'HEAD') return undefined;
    return req.bodyCache.text === undefined ? new Uint8Array(await req.arrayBuffer()) : Buffer.from(await req.text());
  };

  return {
    nodeId: nodes.id,
    join: () => nodes.start(),

    internalEntry: (dispatch) =>
      createMiddleware<AppEnv>(async (c, next) => {
        if (!isInternal(c.req.path) || !secret.matches(c.req.header(internalHeaders.secret))) return next();
        // The same request, not a copy: its body is still unread on the socket, and its path loses the
        // prefix in innerPath (app.ts routes on that), so the owner reads it as it reads a client's.
        const raw = c.req.raw;
        const projectId = raw.headers.get(internalHeaders.project) || undefined;
        for (const name of Object.values(internalHeaders)) raw.headers.delete(name);
        if (c.req.path === `${INTERNAL_PREFIX}${TOOL_CALL_PATH}` && raw.method === 'POST') return serveToolCall(sessions, raw, projectId);
        return dispatch(raw, { ...c.env, internal: { projectId } });
      }),

    refuseInternal: createMiddleware<AppEnv>(async (c, next) => {
      if (!c.env?.internal && isInternal(c.req.path)) {
        throw new DeckhandError('unauthorized', 'This is the internal surface of a Deckhand cluster: only its nodes may call it');
      }
      return next();
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
        return forward(c.req.raw, undefined, owner, undefined, `session ${sessionId}`);
      }
      return forward(c.req.raw, undefined, { url: ownerUrlOf(entry), id: entry.node }, undefined, `session ${sessionId}`, sessionId);
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
        return forward(c.req.raw, await bodyOf(c.req), target, projectId, 'the new session');
      }
      const match = SESSION_PATH.exec(path);
      if (c.env?.internal || !match) return next();
      const sessionId = safeDecode(match[1]!);
      if (answersHere(projectId, sessionId)) return next();
      const entry = await lookup(sessionId);
      // Unknown to the cluster, another project's, or this node's own: answered here (404 or 410).
      if (!entry || entry.project !== projectId || entry.node === nodes.id) return next();
      return forward(c.req.raw, await bodyOf(c.req), { url: ownerUrlOf(entry), id: entry.node }, projectId, `session ${sessionId}`, sessionId);
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
        const channel = await openRemoteChannel(ownerUrlOf(entry), pathAndQuery, secret, config.forwardDeadlineMs);
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
    }, secret, config.forwardDeadlineMs),
  };
}

/** The 410 for a session that ended (the registry's reason). */
function goneError(entry: RegisteredSession): DeckhandError {
  return new DeckhandError('session_gone', `Session ${entry.id} has ended (${entry.reason ?? 'ended'})`);
}
