// deckhand-mcp: the core in-process on a local Chromium, served over stdio or, with --port, as
// Streamable HTTP at /mcp. Logs go to stderr (stdout is the stdio protocol's).
import { serve } from '@hono/node-server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createSessionManager, DeckhandError, DEFAULT_MODEL, isDeckhandError, loadCoreConfigFromEnv } from '@deckhand/core';
import { ActiveSession } from './active-session.js';
import { cliOptions } from './cli-options.js';
import { createMcpEndpoint } from './http-endpoint.js';
import { MCP_SERVER_VERSION } from './index.js';
import { presentedMcpKey } from './mcp-key.js';
import { relayToRemote, remoteMcpUrl } from './remote-relay.js';
import { checkSessionOptions, DEFAULT_SESSION_OPTIONS, type McpSessionOptions } from './session-options.js';
import { createToolServer } from './tool-server.js';

/** The project of a local run's sessions (the binary serves one user). */
const LOCAL_PROJECT = 'local';
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/;

const warn = (message: string) => process.stderr.write(`deckhand-mcp: ${message}\n`);

async function main(): Promise<void> {
  const env = process.env;
  const { session: options, port, host } = cliOptions(process.argv.slice(2), env.DECKHAND_PROXY_URL || undefined);
  if (env.DECKHAND_API_URL && env.DECKHAND_API_KEY) return runRemote(env.DECKHAND_API_URL, env.DECKHAND_API_KEY, options, port);
  checkSessionOptions(options, DEFAULT_MODEL, '--proxies');
  if (options.verified) warn('--verified has no counterpart in Deckhand: accepted, and ignored');
  const sessions = createSessionManager(loadCoreConfigFromEnv(env, { shared: false }));
  const onUnexpectedError = (error: unknown, tool: string) => warn(`${tool}: unexpected error: ${error instanceof Error ? error.message : String(error)}`);

  let stopping = false;
  const stop = (close: () => Promise<void>) => async () => {
    if (stopping) return;
    stopping = true;
    await close().catch(() => undefined);
    await sessions.shutdown();
    process.exit(0);
  };

  if (port === undefined) {
    const active = new ActiveSession(sessions, LOCAL_PROJECT, options);
    const handle = serveStdio(() => createToolServer({ active, version: MCP_SERVER_VERSION, onUnexpectedError }), { onerror: (error) => warn(error.message) });
    const shutdown = stop(async () => {
      await active.release();
      await handle.close();
    });
    process.stdin.on('end', shutdown).on('close', shutdown);
    process.on('SIGINT', shutdown).on('SIGTERM', shutdown);
    return;
  }

  const apiKey = env.DECKHAND_MCP_API_KEY || undefined;
  const loopback = LOOPBACK.test(host);
  if (!loopback && !apiKey) throw new DeckhandError('validation_error', `--host ${host} is reachable from other machines: set DECKHAND_MCP_API_KEY`);
  const endpoint = createMcpEndpoint({
    sessions,
    loopback,
    idleMs: envMs(env.DECKHAND_MCP_IDLE_MS),
    version: MCP_SERVER_VERSION,
    onUnexpectedError,
    optionsOf: () => options,
    projectOf: (request) => {
      if (!apiKey) return LOCAL_PROJECT;
      const presented = presentedMcpKey(request);
      if (!presented) throw new DeckhandError('unauthorized', 'Missing API key: send Authorization: Bearer <key>');
      if (presented.key !== apiKey) throw new DeckhandError('unauthorized', 'Unknown API key');
      if (presented.deprecated) warn('browserbaseApiKey in the query string is deprecated: send Authorization: Bearer <key>');
      return LOCAL_PROJECT;
    },
  });
  const fetch = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== '/mcp') return errorResponse(new DeckhandError('route_not_found', 'Not found: the MCP endpoint is /mcp'));
    try {
      return await endpoint.fetch(request);
    } catch (error) {
      if (isDeckhandError(error)) return errorResponse(error);
      onUnexpectedError(error, 'request');
      return errorResponse(new DeckhandError('internal_error', 'Internal error'));
    }
  };
  const server = serve({ fetch, hostname: host, port }, (info) => warn(`listening on http://${host.includes(':') ? `[${host}]` : host}:${info.port}/mcp`));
  const shutdown = stop(async () => {
    await endpoint.close();
    await new Promise<void>((done) => server.close(() => done()));
  });
  process.on('SIGINT', shutdown).on('SIGTERM', shutdown);
}

/** Remote mode: stdio relayed to the remote's hosted /mcp; what only a local browser can honour is said to be ignored. */
async function runRemote(apiUrl: string, apiKey: string, options: McpSessionOptions, port: number | undefined): Promise<void> {
  if (port !== undefined) throw new DeckhandError('validation_error', '--port is for a local browser; with DECKHAND_API_URL the binary relays stdio to the remote /mcp');
  const local = ['contextId', 'experimental'].filter((name) => options[name as keyof McpSessionOptions]);
  if (options.viewport.width !== DEFAULT_SESSION_OPTIONS.viewport.width || options.viewport.height !== DEFAULT_SESSION_OPTIONS.viewport.height) local.push('browserWidth/browserHeight');
  if (local.length > 0) warn(`ignored with a remote Deckhand (the hosted /mcp has no such parameter): --${local.join(', --')}`);
  const close = await relayToRemote(remoteMcpUrl(apiUrl, options, DEFAULT_MODEL), apiKey, warn);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await close();
    process.exit(0);
  };
  process.stdin.on('end', shutdown).on('close', shutdown);
  process.on('SIGINT', shutdown).on('SIGTERM', shutdown);
}

function errorResponse(error: DeckhandError): Response {
  return Response.json({ success: false, message: error.message, code: error.code }, { status: error.status });
}

function envMs(value: string | undefined): number {
  const ms = Number(value);
  return Number.isInteger(ms) && ms > 0 ? ms : 10 * 60_000;
}

main().catch((error: unknown) => {
  warn(isDeckhandError(error) ? error.message : error instanceof Error ? error.message : String(error));
  process.exit(2);
});
