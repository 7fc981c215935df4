// The binary's flags (the spec's twelve, and Deckhand's --caps and --autoStart), parsed by commander
// into one options value.
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MODEL, isDeckhandError } from '@deckhand/core';
import { DEFAULT_CAPABILITIES, MCP_CAPABILITIES, parseCapabilities, type McpCapability } from './capabilities.js';
import { DEFAULT_SESSION_OPTIONS, type McpSessionOptions } from './session-options.js';

export interface CliOptions {
  session: McpSessionOptions;
  /** Serve Streamable HTTP at /mcp on this port instead of stdio. */
  port?: number;
  host: string;
}

export function cliCommand(): Command {
  const d = DEFAULT_SESSION_OPTIONS;
  return new Command('deckhand-mcp')
    .description('Deckhand as an MCP tool server: stdio by default, Streamable HTTP at /mcp with --port.')
    .option('--proxies', 'route the browser through the proxy the operator configures (DECKHAND_PROXY_URL)', false)
    .option('--verified', 'accepted for compatibility; Deckhand has no verified identity, so this only warns', false)
    .option('--keepAlive', 'keep the browser session when the MCP session closes (re-attach with start {sessionId})', false)
    .option('--contextId <contextId>', 'a browser profile (cookies, storage) kept under the data directory and reused')
    .addOption(new Option('--persist [boolean]', 'use and keep the --contextId profile; --persist false starts a fresh one').default(true).argParser(parseBoolean))
    .addOption(new Option('--port <port>', 'serve Streamable HTTP at /mcp on this port instead of stdio').argParser(parsePort))
    .option('--host <host>', 'bind host for --port; 0.0.0.0 for all interfaces (then DECKHAND_MCP_API_KEY is required)', 'localhost')
    .addOption(new Option('--browserWidth <width>', 'viewport width').default(d.viewport.width).argParser(parseSize))
    .addOption(new Option('--browserHeight <height>', 'viewport height').default(d.viewport.height).argParser(parseSize))
    .option('--modelName <model>', 'model for act/observe/extract', DEFAULT_MODEL)
    .option('--modelApiKey <key>', 'model provider key; required for a model other than the default')
    .option('--experimental', 'enable experimental features', false)
    .addOption(
      new Option('--caps <groups>', `tool groups served beside the six: core (none), ${MCP_CAPABILITIES.join(', ')} or all, comma-separated`)
        .default(DEFAULT_CAPABILITIES, DEFAULT_CAPABILITIES.join(','))
        .argParser(parseCaps),
    )
    .option('--autoStart', 'a page tool after end starts a new browser session instead of asking for start', false)
    .helpOption('-h, --help', 'list every flag');
}

export function cliOptions(argv: string[], proxyUrl?: string): CliOptions {
  const flags = cliCommand().parse(argv, { from: 'user' }).opts<{
    proxies: boolean;
    verified: boolean;
    keepAlive: boolean;
    contextId?: string;
    persist: boolean;
    port?: number;
    host: string;
    browserWidth: number;
    browserHeight: number;
    modelName: string;
    modelApiKey?: string;
    experimental: boolean;
    caps: McpCapability[];
    autoStart: boolean;
  }>();
  return {
    port: flags.port,
    host: flags.host,
    session: {
      modelName: flags.modelName,
      modelApiKey: flags.modelApiKey,
      keepAlive: flags.keepAlive,
      proxies: flags.proxies,
      proxyUrl,
      verified: flags.verified,
      experimental: flags.experimental,
      viewport: { width: flags.browserWidth, height: flags.browserHeight },
      contextId: flags.contextId,
      persist: flags.persist,
      capabilities: flags.caps,
      autoStart: flags.autoStart,
    },
  };
}

function parseCaps(value: string): McpCapability[] {
  try {
    return parseCapabilities(value, '--caps');
  } catch (error) {
    throw new InvalidArgumentError(isDeckhandError(error) ? error.message : String(error));
  }
}

/** `--persist` alone is true; `--persist false` is false. */
function parseBoolean(value: string): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new InvalidArgumentError("expected 'true' or 'false'");
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('expected a port number (0-65535)');
  return port;
}

function parseSize(value: string): number {
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > 10000) throw new InvalidArgumentError('expected a whole number of pixels (1-10000)');
  return size;
}
