// The hosted MCP endpoint at /mcp. MCP is its own protocol (JSON-RPC over Streamable HTTP, with its
// own framing, session header and error objects), so it sits beside the handler table and outside
// openapi.yaml; what is refused before MCP starts (key, query values) still answers in the one error
// shape through the app's error mapping. Keys are the HTTP API's project keys, presented in the
// spec's order (mcp-key.ts), so sessions started here are the project's, visible over the API.
import type { Context } from 'hono';
import { briefly, DeckhandError, type SessionManager } from '@deckhand/core';
import { createMcpEndpoint, MCP_SERVER_VERSION, presentedMcpKey, sessionOptionsFromQuery, type McpEndpoint, type McpSessionRecords, type RemoteSessions } from '@deckhand/mcp';
import { isLoopback, limitsOf, OPEN_PROJECT, type ServerConfig } from './config';
import type { AppEnv } from './env';
import type { LiveTokens } from './live-page/live-tokens';
import type { Logger } from './logger';
import { overRate, type ProjectRates } from './rate-limit';

/**
 * `rates`: where the project's request rate is counted, the same buckets as /v1's, so /mcp adds no
 * requests to a project's rate. `cluster`: the MCP sessions and browser sessions other nodes hold
 * (absent: this process only).
 */
export function createHostedMcp(sessions: SessionManager, config: ServerConfig, logger: Logger, live: LiveTokens, rates: ProjectRates, cluster: { records?: McpSessionRecords; remote?: RemoteSessions } = {}): McpEndpoint {
  const { records, remote } = cluster;
  return createMcpEndpoint({
    ...(records && { records }),
    ...(remote && { remote }),
    sessions,
    loopback: isLoopback(config.host),
    idleMs: config.mcp.idleMs,
    limits: { maxSessions: config.mcp.maxSessions, openRate: config.mcp.openRate },
    version: MCP_SERVER_VERSION,
    projectMaxSessions: (projectId) => limitsOf(config, projectId).maxSessions,
    overRate: (projectId) => overRate((id) => limitsOf(config, id), rates, projectId),
    optionsOf: (request) => sessionOptionsFromQuery(new URL(request.url).searchParams, config.mcp),
    projectOf: (request) => {
      if (config.apiKeys.size === 0) return OPEN_PROJECT;
      const presented = presentedMcpKey(request);
      if (!presented) throw new DeckhandError('unauthorized', 'Missing API key: send Authorization: Bearer <key> (or x-bb-api-key)');
      const projectId = config.apiKeys.get(presented.key);
      if (!projectId) throw new DeckhandError('unauthorized', 'Unknown API key');
      if (presented.deprecated) logger.warn('deprecated: API key sent as the browserbaseApiKey query parameter; send Authorization: Bearer', { projectId });
      return projectId;
    },
    liveViewUrlOf: (requestUrl, session, projectId) => live.pageUrl(requestUrl, session, projectId),
    onUnexpectedError: (error, tool) => logger.error('mcp: unexpected error', { tool, detail: briefly(error) }),
  });
}

/** Hands the request to the endpoint; the body is re-attached, as the app's middleware may have read it. */
export async function serveMcp(c: Context<AppEnv>, endpoint: McpEndpoint): Promise<Response> {
  const raw = c.req.raw;
  const body = raw.method === 'POST' ? await c.req.arrayBuffer() : undefined;
  return endpoint.fetch(new Request(raw.url, { method: raw.method, headers: raw.headers, body, signal: raw.signal }));
}
