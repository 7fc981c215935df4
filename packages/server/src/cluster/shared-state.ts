// What a node shares with the others of its cluster, chosen once at start: without DECKHAND_REDIS_URL
// everything stays in this process's memory exactly as before; with it, project session slots, request
// rates, the act and agent caches, ended sessions' records and the live links' secret live in Redis
// (or are drawn from the cluster secret), so any node sees what any other did.
import { createHmac } from 'node:crypto';
import { inMemorySharedState, type CoreConfig, type SharedSessionState } from '@deckhand/core';
import type { ClusterConfig } from '../config';
import type { Logger } from '../logger';
import { inMemoryProjectRates, type ProjectRates } from '../rate-limit';
import { checkCacheSecret, clusterCacheSecret, redisCacheEntries } from './cache-entries';
import { redisEndedSessions, type EndedSessions } from './ended-sessions';
import { RedisProjectSlots } from './project-slots';
import { redisProjectRates } from './request-rates';
import type { RedisLink } from './redis';
import { redisMcpSessions } from './mcp-sessions';
import type { McpSessionRecords } from '@deckhand/mcp';

export interface SharedState {
  /** The core's configuration, with the cluster's cache store and secret when there is one. */
  coreConfig: CoreConfig;
  sessions: SharedSessionState;
  rates: ProjectRates;
  /** The live and DevTools links' secret: absent, one made for this process. */
  liveSecret?: Buffer;
  ended?: EndedSessions;
  /** The hosted MCP endpoint's sessions, known to every node (absent: this process only). */
  mcpSessions?: McpSessionRecords;
  close(): void;
}

export interface NodeFacts {
  /** This node's internal URL: DECKHAND_NODE_URL, else its listen address once known. */
  url(): string | undefined;
  mcpIdleMs: number;
}

export function sharedState(coreConfig: CoreConfig, cluster: ClusterConfig | undefined, redis: RedisLink | undefined, logger: Logger, node: NodeFacts): SharedState {
  if (!cluster || !redis) return { coreConfig, sessions: inMemorySharedState(), rates: inMemoryProjectRates(), close: () => undefined };
  const cacheSecret = clusterCacheSecret(coreConfig.cacheSecret, cluster.secret);
  checkCacheSecret(redis, cacheSecret, logger);
  const slots = new RedisProjectSlots(redis);
  const ended = redisEndedSessions(redis);
  return {
    coreConfig: { ...coreConfig, cacheSecret, sharedCache: redisCacheEntries(redis) },
    sessions: {
      slots,
      onFinished: (session) => {
        ended.keep(session).catch((error: unknown) => logger.debug('ended session not recorded for the other nodes', { detail: error instanceof Error ? error.message : String(error) }));
      },
    },
    rates: redisProjectRates(redis),
    liveSecret: createHmac('sha256', cluster.secret).update('deckhand live and devtools links').digest(),
    ended,
    mcpSessions: redisMcpSessions({ redis, nodeUrl: node.url, idleMs: node.mcpIdleMs, deadlineMs: cluster.forwardDeadlineMs, onError: (message) => logger.debug(message) }),
    close: () => slots.close(),
  };
}
