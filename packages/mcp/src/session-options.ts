// What every browser session an MCP session starts is started with: one value, built from the hosted
// endpoint's query parameters or the local binary's flags, and turned into the core's start request.
import { DeckhandError, DEFAULT_MODEL, type StartRequest } from '@deckhand/core';
import { DEFAULT_CAPABILITIES, type McpCapability } from './capabilities.js';

export interface McpSessionOptions {
  modelName: string;
  /** Kept on the session, never logged. */
  modelApiKey?: string;
  /** The browser session outlives its MCP session (ends only by `end` or its own timeouts). */
  keepAlive: boolean;
  /** Route the browser through the operator's proxy (proxyUrl); asking for it with none configured is refused. */
  proxies: boolean;
  /** The operator's proxy (DECKHAND_PROXY_URL), never the client's choice. */
  proxyUrl?: string;
  /** No counterpart in Deckhand: accepted for compatibility, warned about where it is set. */
  verified: boolean;
  experimental: boolean;
  viewport: { width: number; height: number };
  /** A persistent browser profile, kept under the project's data directory as contexts/<id>. */
  contextId?: string;
  /** Whether the profile named by contextId is used (and so kept); false starts a fresh throwaway profile. */
  persist: boolean;
  /** The groups of tools served beside the spec's six. */
  capabilities: McpCapability[];
  /** A page tool after `end` starts a new browser session instead of answering that `start` is needed. */
  autoStart: boolean;
}

export const DEFAULT_SESSION_OPTIONS: McpSessionOptions = {
  modelName: DEFAULT_MODEL,
  keepAlive: false,
  proxies: false,
  verified: false,
  experimental: false,
  viewport: { width: 1024, height: 768 },
  persist: true,
  capabilities: DEFAULT_CAPABILITIES,
  autoStart: false,
};

/** Refuses what cannot be honoured, in words naming the setting. */
export function checkSessionOptions(options: McpSessionOptions, defaultModel: string, proxiesName = 'proxies'): void {
  if (options.modelName !== defaultModel && !options.modelApiKey) {
    throw new DeckhandError('validation_error', `modelApiKey is required when modelName is not the default (${defaultModel})`);
  }
  if (options.proxies && !options.proxyUrl) {
    throw new DeckhandError('validation_error', `${proxiesName} needs a proxy the operator configures (DECKHAND_PROXY_URL); none is configured`);
  }
}

export function startRequestOf(options: McpSessionOptions): StartRequest {
  const launchOptions = {
    ...(options.contextId && options.persist ? { userDataDir: `contexts/${options.contextId}` } : {}),
    ...(options.proxies && options.proxyUrl ? { proxy: { server: options.proxyUrl } } : {}),
  };
  return {
    modelName: options.modelName,
    experimental: options.experimental,
    browserbaseSessionCreateParams: {
      keepAlive: options.keepAlive,
      browserSettings: { viewport: options.viewport },
    },
    ...(Object.keys(launchOptions).length > 0 ? { browser: { type: 'local', launchOptions } } : {}),
  };
}
