// The one Redis connection of a node, and the one "Redis is down" signal: every cluster module runs its
// commands through `run`, which fails fast with 503 cluster_unavailable (retry-after) instead of queueing
// or hanging, and the client reconnects by itself. The URL may hold a password: it is never logged.
import { createClient, type RedisClientType } from 'redis';
import { DeckhandError } from '@deckhand/core';
import type { Logger } from '../logger';

export type RedisClient = RedisClientType;

export interface RedisLink {
  /** Runs commands on the connection; when Redis is down or slower than COMMAND_TIMEOUT_MS, throws cluster_unavailable. */
  run<T>(commands: (client: RedisClient) => Promise<T>): Promise<T>;
  /** Whether the connection is up now (read by /readyz and the placement). */
  readonly available: boolean;
  /** Called with each change of `available`. */
  onAvailability(listener: (available: boolean) => void): void;
  close(): Promise<void>;
}

/** What a caller waits for an answer before Redis counts as down: far above a loopback round trip (~0.1 ms). */
const COMMAND_TIMEOUT_MS = 1_000;
/** What a client is told to wait when Redis is down: about two reconnection attempts. */
export const RETRY_AFTER_SECONDS = 2;

export function clusterUnavailable(why = 'the cluster registry (Redis) is unreachable'): DeckhandError {
  return new DeckhandError('cluster_unavailable', `Try again shortly: ${why}`, undefined, { retryAfterSeconds: RETRY_AFTER_SECONDS });
}

/** Connects in the background: a node starts (and serves the sessions it owns) while Redis is down. */
export function connectRedis(url: string, logger: Logger): RedisLink {
  const client: RedisClient = createClient({
    url,
    // Commands issued while disconnected fail at once rather than waiting in a queue for a reconnection.
    disableOfflineQueue: true,
    socket: { connectTimeout: COMMAND_TIMEOUT_MS, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 1_000) },
  });
  const listeners: Array<(available: boolean) => void> = [];
  let available = false;
  const set = (now: boolean, fields?: Record<string, unknown>) => {
    if (now === available) return;
    available = now;
    if (now) logger.info('cluster registry (Redis) connected');
    else logger.warn('cluster registry (Redis) unreachable: starts and forwarded requests answer 503 until it is back', fields);
    for (const listener of listeners) listener(now);
  };
  client.on('ready', () => set(true));
  client.on('end', () => set(false));
  // The error event must have a listener (else it is thrown); its message may name the host, never the URL's password.
  client.on('error', (error: unknown) => set(false, { detail: error instanceof Error ? error.message : String(error) }));
  let closed = false;
  client.connect().catch(() => {
    // The reconnect strategy keeps trying; the error listener has logged why.
  });

  return {
    async run(commands) {
      if (!available || closed) throw clusterUnavailable();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(clusterUnavailable('the cluster registry (Redis) did not answer in time')), COMMAND_TIMEOUT_MS);
      });
      try {
        return await Promise.race([commands(client), timeout]);
      } catch (error) {
        if (error instanceof DeckhandError) throw error;
        throw clusterUnavailable();
      } finally {
        clearTimeout(timer);
      }
    },
    get available() {
      return available && !closed;
    },
    onAvailability(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      await client.close().catch(() => client.destroy());
    },
  };
}
