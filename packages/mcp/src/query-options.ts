// The hosted endpoint's query parameters: modelName, modelApiKey (required with a model other than the default), keepAlive, proxies, verified,
// and Deckhand's own caps (the tool groups served) and autoStart. Booleans are exact strings 'true' or
// 'false'; anything else is a 400 naming the parameter.
import { DeckhandError } from '@deckhand/core';
import { DEFAULT_CAPABILITIES, parseCapabilities } from './capabilities.js';
import { checkSessionOptions, DEFAULT_SESSION_OPTIONS, type McpSessionOptions } from './session-options.js';

export function sessionOptionsFromQuery(query: URLSearchParams, defaults: { modelName: string; proxyUrl?: string }): McpSessionOptions {
  const options: McpSessionOptions = {
    ...DEFAULT_SESSION_OPTIONS,
    modelName: query.get('modelName') || defaults.modelName,
    modelApiKey: query.get('modelApiKey') || undefined,
    keepAlive: exactBoolean(query, 'keepAlive'),
    proxies: exactBoolean(query, 'proxies'),
    verified: exactBoolean(query, 'verified'),
    proxyUrl: defaults.proxyUrl,
    // caps given more than once counts every value, as `caps=read&caps=vision` means both.
    capabilities: query.has('caps') ? parseCapabilities(query.getAll('caps').join(','), 'Query parameter caps') : DEFAULT_CAPABILITIES,
    autoStart: exactBoolean(query, 'autoStart'),
  };
  checkSessionOptions(options, defaults.modelName, 'Query parameter proxies=true');
  return options;
}

function exactBoolean(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new DeckhandError('validation_error', `Query parameter ${name} must be exactly 'true' or 'false'`);
}
