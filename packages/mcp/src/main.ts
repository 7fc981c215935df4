// deckhand-mcp: the core in-process on a local Chromium, served over stdio or, with --port, as
// Streamable HTTP at /mcp; or, with DECKHAND_API_URL and DECKHAND_API_KEY, stdio relayed to a remote
// Deckhand's /mcp. Logs go to stderr (stdout is the stdio protocol's).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createSessionManager, DeckhandError, DEFAULT_MODEL, isDeckhandError, loadCoreConfigFromEnv, startLeftoverSweeps } from '@deckhand/core';
import { ActiveSession } from './active-session.js';
import { cliOptions } from './cli-options.js';
import { MCP_SERVER_VERSION } from './index.js';
import { relayToRemote, remoteMcpUrl } from './remote-relay.js';
import { serveSelfHosted } from './self-hosted.js';
import { checkSessionOptions, DEFAULT_SESSION_OPTIONS, type McpSessionOptions } from './session-options.js';
import { createToolServer } from './tool-server.js';

/** The project of a local run's sessions (the binary serves one user). */
const LOCAL_PROJECT = 'local';

const warn = (message: string) => process.stderr.write(`deckhand-mcp: ${message}\n`);

async function main(): Promise<void> {
  const env = process.env;
  const { session: options, port, host } = cliOptions(process.argv.slice(2), env.DECKHAND_PROXY_URL || undefined);
  if (env.DECKHAND_API_URL && env.DECKHAND_API_KEY) return runRemote(env.DECKHAND_API_URL, env.DECKHAND_API_KEY, options, port);
  checkSessionOptions(options, DEFAULT_MODEL, '--proxies');
  if (options.verified) warn('--verified has no counterpart in Deckhand: accepted, and ignored');
  const config = loadCoreConfigFromEnv(env, { shared: false });
  // What a run killed outright (an MCP client ending it hard) left would stay on disk for good; a self-hosted
  // run lives long, and another run on the data directory may die any time.
  const leftoverSweeps = await startLeftoverSweeps(config, { repeat: true });
  const sessions = createSessionManager(config);
  const onUnexpectedError = (error: unknown, tool: string) => warn(`${tool}: unexpected error: ${error instanceof Error ? error.message : String(error)}`);

  let close: () => Promise<void>;
  if (port === undefined) {
    // One connection, one MCP session, one active browser session.
    const active = new ActiveSession(sessions, LOCAL_PROJECT, options);
    const handle = serveStdio(() => createToolServer({ active, version: MCP_SERVER_VERSION, onUnexpectedError }), { onerror: (error) => warn(error.message) });
    close = async () => {
      await active.release();
      await handle.close();
    };
  } else {
    const server = serveSelfHosted({
      sessions,
      options,
      projectId: LOCAL_PROJECT,
      host,
      port,
      apiKey: env.DECKHAND_MCP_API_KEY || undefined,
      idleMs: envMs(env.DECKHAND_MCP_IDLE_MS),
      version: MCP_SERVER_VERSION,
      warn,
      onUnexpectedError,
    });
    close = () => server.close();
  }
  onShutdown(async () => {
    leftoverSweeps.stop();
    await close().catch(() => undefined);
    await sessions.shutdown();
  }, port === undefined);
}

/** Remote mode: what only a local browser can honour is said to be ignored. */
async function runRemote(apiUrl: string, apiKey: string, options: McpSessionOptions, port: number | undefined): Promise<void> {
  if (port !== undefined) throw new DeckhandError('validation_error', '--port is for a local browser; with DECKHAND_API_URL the binary relays stdio to the remote /mcp');
  const local = ['contextId', 'experimental'].filter((name) => options[name as keyof McpSessionOptions]);
  if (options.viewport.width !== DEFAULT_SESSION_OPTIONS.viewport.width || options.viewport.height !== DEFAULT_SESSION_OPTIONS.viewport.height) local.push('browserWidth/browserHeight');
  if (local.length > 0) warn(`ignored with a remote Deckhand (the hosted /mcp has no such parameter): --${local.join(', --')}`);
  onShutdown(await relayToRemote(remoteMcpUrl(apiUrl, options, DEFAULT_MODEL), apiKey, warn), true);
}

/** Runs `close` once, on a signal or (stdio) when the client closes stdin, then exits. */
function onShutdown(close: () => Promise<void>, onStdinEnd: boolean): void {
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await close().catch((error: unknown) => warn(`shutdown: ${error instanceof Error ? error.message : String(error)}`));
    process.exit(0);
  };
  if (onStdinEnd) process.stdin.on('end', shutdown).on('close', shutdown);
  process.on('SIGINT', shutdown).on('SIGTERM', shutdown);
}

function envMs(value: string | undefined): number {
  const ms = Number(value);
  return Number.isInteger(ms) && ms > 0 ? ms : 10 * 60_000;
}

main().catch((error: unknown) => {
  warn(isDeckhandError(error) ? error.message : error instanceof Error ? error.message : String(error));
  process.exit(2);
});
