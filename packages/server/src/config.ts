// Server configuration, read once from the environment at the edge and passed down.
import { readFileSync } from 'node:fs';
import { DeckhandError, envInteger } from '@deckhand/core';

export interface ServerConfig {
  host: string;
  port: number;
  /** API key → project id. Empty: unauthenticated use, allowed only on loopback. */
  apiKeys: Map<string, string>;
  bodyLimitBytes: number;
  /** Interval of the SSE comment heartbeat. */
  heartbeatMs: number;
  logLevel: LogLevel;
  /** Base URL clients reach the server at, for the URLs it hands out; else each request's own. */
  publicUrl?: string;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Project of every session when the server runs without keys. */
export const OPEN_PROJECT = 'local';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Parses `key:projectId` pairs separated by commas or newlines; `#` starts a comment line. */
export function parseApiKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const raw of text.split(/[,\n]/)) {
    const entry = raw.trim();
    if (!entry || entry.startsWith('#')) continue;
    const colon = entry.lastIndexOf(':');
    if (colon <= 0 || colon === entry.length - 1) {
      throw new DeckhandError('validation_error', 'API keys must be "key:projectId" pairs (DECKHAND_API_KEYS / DECKHAND_API_KEYS_FILE)');
    }
    keys.set(entry.slice(0, colon), entry.slice(colon + 1));
  }
  return keys;
}

export function loadServerConfig(env: Record<string, string | undefined>): ServerConfig {
  const host = env.HOST || '127.0.0.1';
  const apiKeys = parseApiKeys(env.DECKHAND_API_KEYS ?? '');
  if (env.DECKHAND_API_KEYS_FILE) {
    for (const [key, project] of parseApiKeys(readFileSync(env.DECKHAND_API_KEYS_FILE, 'utf8'))) apiKeys.set(key, project);
  }
  if (apiKeys.size === 0 && !isLoopback(host)) {
    throw new DeckhandError(
      'unauthorized',
      `Refusing to listen on ${host} without API keys: set DECKHAND_API_KEYS (key:projectId,...) or bind to 127.0.0.1`,
    );
  }
  const logLevel = (env.DECKHAND_LOG_LEVEL || 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new DeckhandError('validation_error', 'DECKHAND_LOG_LEVEL must be debug, info, warn or error');
  }
  const publicUrl = env.DECKHAND_PUBLIC_URL || undefined;
  if (publicUrl && !/^https?:\/\/[^/]/.test(publicUrl)) {
    throw new DeckhandError('validation_error', 'DECKHAND_PUBLIC_URL must be an http(s) URL, such as https://deckhand.example.com');
  }
  return {
    host,
    port: envInteger(env, 'PORT', 3000, 0),
    apiKeys,
    bodyLimitBytes: envInteger(env, 'DECKHAND_BODY_LIMIT_BYTES', 4 * 1024 * 1024),
    heartbeatMs: envInteger(env, 'DECKHAND_SSE_HEARTBEAT_MS', 15_000),
    logLevel,
    publicUrl,
  };
}
