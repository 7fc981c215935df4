// `deckhand-mcp --port`: Streamable HTTP at /mcp on a local port, for one user's own machine. On a
// non-loopback host a key (DECKHAND_MCP_API_KEY) is required; the flags set every session's options.
import { serve } from '@hono/node-server';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { DeckhandError, isDeckhandError, type SessionManager } from '@deckhand/core';
import { createMcpEndpoint } from './http-endpoint.js';
import { presentedMcpKey } from './mcp-key.js';
import type { McpSessionOptions } from './session-options.js';

export interface SelfHostedOptions {
  sessions: SessionManager;
  options: McpSessionOptions;
  projectId: string;
  host: string;
  port: number;
  apiKey?: string;
  idleMs: number;
  version: string;
  warn(message: string): void;
  onUnexpectedError(error: unknown, tool: string): void;
}

export function serveSelfHosted(opts: SelfHostedOptions): { close(): Promise<void> } {
  const { host, apiKey, warn } = opts;
  const loopback = localhostAllowedHostnames().includes(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  if (!loopback && !apiKey) throw new DeckhandError('validation_error', `--host ${host} is reachable from other machines: set DECKHAND_MCP_API_KEY`);
  const endpoint = createMcpEndpoint({
    sessions: opts.sessions,
    loopback,
    idleMs: opts.idleMs,
    version: opts.version,
    onUnexpectedError: opts.onUnexpectedError,
    optionsOf: () => opts.options,
    projectOf: (request) => {
      if (!apiKey) return opts.projectId;
      const presented = presentedMcpKey(request);
      if (!presented) throw new DeckhandError('unauthorized', 'Missing API key: send Authorization: Bearer <key>');
      if (presented.key !== apiKey) throw new DeckhandError('unauthorized', 'Unknown API key');
      if (presented.deprecated) warn('browserbaseApiKey in the query string is deprecated: send Authorization: Bearer <key>');
      return opts.projectId;
    },
  });
  const fetch = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== '/mcp') return errorResponse(new DeckhandError('route_not_found', 'Not found: the MCP endpoint is /mcp'));
    try {
      return await endpoint.fetch(request);
    } catch (error) {
      if (isDeckhandError(error)) return errorResponse(error);
      opts.onUnexpectedError(error, 'request');
      return errorResponse(new DeckhandError('internal_error', 'Internal error'));
    }
  };
  const server = serve({ fetch, hostname: host, port: opts.port }, (info) => warn(`listening on http://${host.includes(':') ? `[${host}]` : host}:${info.port}/mcp`));
  return {
    async close() {
      await endpoint.close();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** The one error shape, as the main server answers it. */
function errorResponse(error: DeckhandError): Response {
  return Response.json({ success: false, message: error.message, code: error.code }, { status: error.status });
}
