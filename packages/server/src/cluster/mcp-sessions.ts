// The hosted MCP endpoint's sessions on a cluster: each 2025-11-25 MCP session is a HASH in Redis
// (project, the node holding it, the browser session it drives), expiring with the MCP idle time and
// refreshed by each request. A request that reaches another node with its Mcp-Session-Id is sent on to
// the holder's /mcp as the client sent it (its key included: every node has the same keys, and the
// holder checks it again), and the answer (JSON or an SSE stream) passes back as it comes.
import { DeckhandError } from '@deckhand/core';
import type { McpSessionRecords } from '@deckhand/mcp';
import { keys } from './keys';
import type { RedisLink } from './redis';

/** Headers of one hop, not passed on (the holder's Host is its own). */
const HOP_BY_HOP = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'te', 'trailer'];

export interface McpSessionsOptions {
  redis: RedisLink;
  /** This node's internal URL (known once it listens). */
  nodeUrl(): string | undefined;
  /** The MCP idle time: a record outlives its session's last request by no more. */
  idleMs: number;
  onError(message: string): void;
}

export function redisMcpSessions({ redis, nodeUrl, idleMs, onError }: McpSessionsOptions): McpSessionRecords {
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
      const headers = new Headers(request.headers);
      for (const name of HOP_BY_HOP) headers.delete(name);
      const body = request.method === 'POST' ? await request.arrayBuffer() : undefined;
      const answer = await fetch(`${record.node}${url.pathname}${url.search}`, { method: request.method, headers, body, signal: request.signal, redirect: 'manual' }).catch((error: unknown) => {
        if (request.signal.aborted) throw error;
        // A 404 is what tells an MCP client to initialize a new session.
        throw new DeckhandError('session_not_found', `MCP session ${mcpSessionId} was held by a node that stopped answering: initialize a new one (and call start with your sessionId to re-attach)`);
      });
      const back = new Headers(answer.headers);
      for (const name of HOP_BY_HOP) back.delete(name);
      back.delete('content-encoding');
      return new Response(answer.body, { status: answer.status, headers: back });
    },
  };
}
