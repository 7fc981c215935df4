// The hosted MCP endpoint's sessions on a cluster: each 2025-11-25 MCP session is a HASH in Redis
// (project, the node holding it, the browser session it drives), expiring with the MCP idle time and
// refreshed by each request. A request that reaches another node with its Mcp-Session-Id is sent to the
// holder's internal URL with the cluster secret and the project this node authenticated, and its answer
// (JSON or an SSE stream) passes back as it comes.
import type { McpSessionRecords } from '@deckhand/mcp';
import { INTERNAL_PREFIX, internalHeaders, keys } from './keys';
import type { RedisLink } from './redis';

export interface McpSessionsOptions {
  redis: RedisLink;
  secret: string;
  /** This node's internal URL (known once it listens). */
  nodeUrl(): string | undefined;
  /** The MCP idle time: a record outlives its session's last request by no more. */
  idleMs: number;
  onError(message: string): void;
}

export function redisMcpSessions({ redis, secret, nodeUrl, idleMs, onError }: McpSessionsOptions): McpSessionRecords {
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
      headers.set(internalHeaders.secret, secret);
      headers.set(internalHeaders.project, projectId);
      headers.set(internalHeaders.origin, url.origin);
      headers.delete('host');
      const body = request.method === 'POST' ? await request.arrayBuffer() : undefined;
      return fetch(`${record.node}${INTERNAL_PREFIX}${url.pathname}${url.search}`, { method: request.method, headers, body, signal: request.signal });
    },
  };
}
