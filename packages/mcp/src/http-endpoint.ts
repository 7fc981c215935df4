// Streamable HTTP at /mcp, for the main server and the self-hosted binary alike. Both protocol
// revisions are served: 2025-11-25 clients get a session (Mcp-Session-Id) with its own tool server and
// active browser session; 2026-07-28 requests are stateless (a fresh tool server per request, as the
// SDK's per-request transport cannot be reused), so their active browser session is kept per project
// and query options instead (docs/decisions.md). Refusals before MCP starts (key, query) are thrown as
// DeckhandErrors for the caller's one error mapping.
import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  hostHeaderValidationResponse,
  originValidationResponse,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServer,
} from '@modelcontextprotocol/server';
import { DeckhandError, KeyedCounts, TokenBuckets, type SessionManager } from '@deckhand/core';
import { ActiveSession } from './active-session.js';
import type { RemoteSessions } from './driven-session.js';
import type { McpSessionOptions } from './session-options.js';
import type { McpSessionRecords } from './session-records.js';
import { InFlightIds } from './in-flight-ids.js';
import { rateRefusal } from './rate-refusal.js';
import { createToolServer } from './tool-server.js';

export interface McpEndpointOptions {
  sessions: SessionManager;
  /** The caller's project, from its key; throws DeckhandError('unauthorized') when there is none. */
  projectOf(request: Request): string;
  /** The project's live-session limit, which every browser session started here counts against (absent: none). */
  projectMaxSessions?(projectId: string): number | undefined;
  /**
   * The refusal (429) of a request of the project over its request rate, taking one of its tokens
   * otherwise; asked once for each HTTP request this node serves (absent: no rate).
   */
  overRate?(projectId: string): Promise<DeckhandError | undefined>;
  /** The options of the browser sessions this request's MCP session starts; throws on a bad value. */
  optionsOf(request: Request): McpSessionOptions;
  /** Bound to loopback: refuse foreign Host and Origin headers (DNS rebinding). */
  loopback: boolean;
  /** An MCP session with no request for this long is closed, and its browser session with it (unless keepAlive). */
  idleMs: number;
  version: string;
  /**
   * Per project: MCP sessions held open at once (2025-11-25 sessions and 2026-07-28 active sessions
   * together), and new ones a second. Each holds a tool server until it idles out, so without a cap a
   * burst of initialize requests held memory for DECKHAND_MCP_IDLE_MS. Absent or 0: no limit.
   */
  limits?: { maxSessions?: number; openRate?: number };
  onUnexpectedError?: (error: unknown, tool: string) => void;
  /** The live page of a session, for `start` to hand out (built on the request's address, for the caller's project). */
  liveViewUrlOf?(requestUrl: string, session: { id: string }, projectId: string): string;
  /** A cluster's record of MCP sessions, so any node reaches one another node holds (absent: this process only). */
  records?: McpSessionRecords;
  /** A cluster's sessions held by other nodes, which `start {sessionId}` attaches to (absent: this process only). */
  remote?: RemoteSessions;
}

export interface McpEndpoint {
  fetch(request: Request): Promise<Response>;
  /** Closes every MCP session (ending their browser sessions unless keepAlive). */
  close(): Promise<void>;
}

/** The hint past the cap, as for a session slot: a slot frees when a client closes or idles out. */
const CAP_RETRY_AFTER_S = 5;

interface Held {
  projectId: string;
  active: ActiveSession;
  /** The 2025-11-25 session's transport (2026-07-28 requests have one each, not kept). */
  transport?: WebStandardStreamableHTTPServerTransport;
  /** The 2025-11-25 session's JSON-RPC ids awaiting an answer. */
  inFlight?: InFlightIds;
  timer?: NodeJS.Timeout;
  close(): Promise<void>;
}

interface Caller {
  projectId: string;
  options: McpSessionOptions;
  liveViewUrl?: (session: { id: string }) => string;
}

export function createMcpEndpoint(opts: McpEndpointOptions): McpEndpoint {
  /** 2025-11-25 sessions by Mcp-Session-Id. */
  const legacy = new Map<string, Held>();
  /** 2026-07-28 active sessions by project and options. */
  const modern = new Map<string, Held>();
  /** 2025-11-25 sessions being initialized, per project: counted against the cap before they are held. */
  const opening = new KeyedCounts();
  const openings = new TokenBuckets();

  /** A 429 when the project may not open another MCP session now (its rate, or its cap). */
  const admit = (projectId: string) => {
    const { maxSessions, openRate } = opts.limits ?? {};
    const wait = openRate ? openings.take(projectId, openRate) : undefined;
    if (wait !== undefined) {
      throw new DeckhandError('rate_limited', `This project opened more than ${openRate} MCP sessions a second (initialize); retry in ${wait} s`, undefined, { retryAfterSeconds: wait });
    }
    const held = [...legacy.values(), ...modern.values()].filter((h) => h.projectId === projectId).length + opening.get(projectId);
    if (maxSessions && held >= maxSessions) {
      throw new DeckhandError('rate_limited', `This project has ${maxSessions} open MCP sessions, its limit: close one (DELETE /mcp with its Mcp-Session-Id) or let one idle out, then initialize again`, undefined, { retryAfterSeconds: CAP_RETRY_AFTER_S });
    }
  };

  /** The 429 (a JSON-RPC error) when the project is over its request rate. */
  const throttled = async (request: Request, projectId: string): Promise<Response | undefined> => {
    const refusal = await opts.overRate?.(projectId);
    return refusal && rateRefusal(request, refusal);
  };

  const idle = (map: Map<string, Held>, key: string, held: Held) => {
    clearTimeout(held.timer);
    // A call still running (a browser starting, a long act) keeps its MCP session open.
    held.timer = setTimeout(() => (held.active.busy ? idle(map, key, held) : void drop(map, key)), opts.idleMs);
    held.timer.unref();
  };
  const drop = async (map: Map<string, Held>, key: string) => {
    const held = map.get(key);
    if (!held) return;
    map.delete(key);
    if (map === legacy) opts.records?.forget(key);
    clearTimeout(held.timer);
    await held.close().catch((error) => opts.onUnexpectedError?.(error, 'close'));
  };
  const toolServer = (active: ActiveSession, caller: Caller): McpServer =>
    createToolServer({ active, version: opts.version, liveViewUrl: caller.liveViewUrl, onUnexpectedError: opts.onUnexpectedError });

  const modernHandler = createMcpHandler(
    (ctx) => {
      const caller = ctx.authInfo?.extra?.caller as Caller;
      const key = modernKey(caller);
      let held = modern.get(key);
      if (!held) {
        // A 2026-07-28 client has no MCP session to remember an `end` in: every client of this key and
        // options shares this one, so a later client's first page tool starts a browser as on a first call.
        const active = new ActiveSession(opts.sessions, caller.projectId, { ...caller.options, autoStart: true }, opts.remote, opts.projectMaxSessions?.(caller.projectId));
        held = { projectId: caller.projectId, active, close: () => active.release() };
        modern.set(key, held);
      }
      idle(modern, key, held);
      return toolServer(held.active, caller);
    },
    { legacy: 'reject', onerror: (error) => opts.onUnexpectedError?.(error, 'transport') },
  );

  async function serveLegacy(request: Request, caller: Caller): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const held = legacy.get(sessionId);
      // Another project's MCP session is as unknown as one that never was.
      if (!held || held.projectId !== caller.projectId) {
        const there = held ? undefined : await opts.records?.elsewhere(sessionId, caller.projectId, request);
        if (there) return there;
        throw new DeckhandError('session_not_found', `MCP session ${sessionId} not found: initialize a new one (and call start with your sessionId to re-attach)`);
      }
      // Counted here, where the session is held: a request another node forwarded was not counted there.
      const over = await throttled(request, held.projectId);
      if (over) return over;
      idle(legacy, sessionId, held);
      const { refusal, ids } = await held.inFlight!.admit(request);
      if (refusal) return refusal;
      const response = await held.transport!.handleRequest(request);
      if (!response.ok) held.inFlight!.release(ids);
      // After the request, so the record names the browser session a start or end just chose.
      if (legacy.has(sessionId)) opts.records?.hold(sessionId, held.projectId, held.active.id);
      return response;
    }
    const over = await throttled(request, caller.projectId);
    if (over) return over;
    admit(caller.projectId);
    opening.add(caller.projectId);
    try {
      return await initializeLegacy(request, caller);
    } finally {
      opening.release(caller.projectId);
    }
  }

  async function initializeLegacy(request: Request, caller: Caller): Promise<Response> {
    const active = new ActiveSession(opts.sessions, caller.projectId, caller.options, opts.remote, opts.projectMaxSessions?.(caller.projectId));
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const held: Held = { projectId: caller.projectId, active, transport, inFlight, close: () => closeAll(server, active) };
        legacy.set(id, held);
        idle(legacy, id, held);
        opts.records?.hold(id, caller.projectId, undefined);
      },
      onsessionclosed: (id) => drop(legacy, id),
    });
    const server = toolServer(active, caller);
    await server.connect(transport);
    // After connect, so it wraps the send the tool server answers through.
    const inFlight = new InFlightIds(transport);
    const response = await transport.handleRequest(request);
    // Not an initialize request: the transport refused it, and nothing was kept.
    if (!transport.sessionId) await server.close();
    return response;
  }

  return {
    async fetch(request) {
      if (opts.loopback) {
        const rejected = hostHeaderValidationResponse(request, localhostAllowedHostnames()) ?? originValidationResponse(request, localhostAllowedOrigins());
        if (rejected) return rejected;
      }
      const projectId = opts.projectOf(request);
      const liveViewUrlOf = opts.liveViewUrlOf;
      const caller: Caller = {
        projectId,
        options: opts.optionsOf(request),
        ...(liveViewUrlOf && { liveViewUrl: (session: { id: string }) => liveViewUrlOf(request.url, session, projectId) }),
      };
      if (await isLegacyRequest(request)) return serveLegacy(request, caller);
      const over = await throttled(request, caller.projectId);
      if (over) return over;
      if (!modern.has(modernKey(caller))) admit(caller.projectId);
      const authInfo: AuthInfo = { token: '', clientId: caller.projectId, scopes: [], extra: { caller } };
      return modernHandler.fetch(request, { authInfo });
    },
    async close() {
      await modernHandler.close();
      await Promise.all([...legacy.keys()].map((key) => drop(legacy, key)));
      await Promise.all([...modern.keys()].map((key) => drop(modern, key)));
    },
  };
}

/** A 2026-07-28 active session is kept per project and query options. */
function modernKey(caller: Caller): string {
  return `${caller.projectId}\0${JSON.stringify(caller.options)}`;
}

async function closeAll(server: McpServer, active: ActiveSession): Promise<void> {
  await server.close();
  await active.release();
}
