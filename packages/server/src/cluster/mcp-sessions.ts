// The hosted MCP endpoint's sessions on a cluster: each 2025-11-25 MCP session is a HASH in Redis
// (project, the node holding it, the browser session it drives), expiring with the MCP idle time and
// refreshed by each request. A request that reaches another node with its Mcp-Session-Id is sent on to
// the holder's /mcp with the headers /mcp reads (its key included: every node has the same keys, and the
// holder checks it again), and the answer (JSON or an SSE stream) passes back as it comes. The holder must
// take it within the forward deadline, else 503 (retry-after), and a request given up on never runs there.
import { DeckhandError } from '@deckhand/core';
import type { McpSessionRecords } from '@deckhand/mcp';
import { headersRead, ownerUnavailable, OwnerUnreachable, sendToNode } from './forward';
import { keys } from './keys';
import type { RedisLink } from './redis';

/**
 * The client headers the holder's /mcp reads: the key (mcp-key.ts), the Origin it checks on loopback, the body's
 * type and what the client accepts, and the MCP transport's own (session, protocol revision, the event to resume
 * after, and the 2026-07-28 method and name the SDK classifies a request by). Its Host is its own.
 */
const MCP_READ = new Set(['authorization', 'x-bb-api-key', 'origin', 'content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'mcp-method', 'mcp-name']);

export interface McpSessionsOptions {
  redis: RedisLink;
  /** This node's internal URL (known once it listens). */
  nodeUrl(): string | undefined;
  /** The MCP idle time: a record outlives its session's last request by no more. */
  idleMs: number;
  /** The forward deadline (DECKHAND_FORWARD_DEADLINE_MS) for the holder to take a request. */
  deadlineMs: number;
  onError(message: string): void;
}

export function redisMcpSessions({ redis, nodeUrl, idleMs, deadlineMs, onError }: McpSessionsOptions): McpSessionRecords {
  const quietly = (work: Promise<unknown>, what: string) => void work.catch(() => onError(`mcp: ${what} not recorded in the cluster registry (Redis unreachable)`));
  return {
    hold(mcpSessionId, projectId, browserSessionId) {
      const node = nodeUrl();
      if (!node) return;
      const key = keys.mcpSession(mcpSessionId);
      quietly(
        redis.run((client) => client.multi().hSet(key, { project: projectId, node, session: browserSessionId ?? '' }).pExpire(key, idleMs).exec()),
        'MCP session',
      );
    },

    forget(mcpSessionId) {
      quietly(redis.run((client) => client.del(keys.mcpSession(mcpSessionId))), 'closed MCP session');
    },

    async elsewhere(mcpSessionId, projectId, request) {
      // Redis down: 503 cluster_unavailable (retry-after) from run, rather than "not found" for a session that may well exist.
      const record = await redis.run((client) => client.hGetAll(keys.mcpSession(mcpSessionId)));
      if (record.project !== projectId || !record.node || record.node === nodeUrl()) return undefined;
      const url = new URL(request.url);
      const headers = headersRead(request, MCP_READ);
      const body = request.method === 'POST' ? new Uint8Array(await request.arrayBuffer()) : undefined;
      const forwarded = { path: `${url.pathname}${url.search}`, method: request.method, headers, ...(body && { body }), signal: request.signal };
      return sendToNode(record.node, forwarded, deadlineMs).catch((error: unknown) => {
        if (request.signal.aborted || !(error instanceof OwnerUnreachable)) throw error;
        // Reached but silent (paused, hung): it still holds the MCP session, which a retry finds.
        if (error.silentMs) throw ownerUnavailable(`MCP session ${mcpSessionId}`, error);
        // Refused or reset: the node is gone, and its MCP session with it. A 404 is what tells an MCP client to initialize a new session.
        throw new DeckhandError('session_not_found', `MCP session ${mcpSessionId} was held by a node that stopped answering: initialize a new one (and call start with your sessionId to re-attach)`);
      });
    },
  };
}
