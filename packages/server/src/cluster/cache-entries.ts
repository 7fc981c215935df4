// The act and agent caches of a cluster in Redis: each signed entry a string that expires unless written
// again, so every node reads what any node resolved. Entries stay signed with the cache secret, which
// must be the same on every node: the first node leaves a digest of its secret, and a node with another
// one says so in its log (its entries and the others' are then misses to each other, never replayed).
import { createHmac } from 'node:crypto';
import type { SharedEntries } from '@deckhand/core';
import type { Logger } from '../logger';
import { keys } from './keys';
import type { RedisLink } from './redis';

/** An entry unused this long is dropped (each write renews it); a project's cache cannot grow for good. */
const ENTRY_TTL_MS = 30 * 24 * 3600_000;
/** Larger entries stay in the node's memory only: one entry never takes a large share of Redis. */
const MAX_ENTRY_BYTES = 256 * 1024;

/** Reads and writes fail as misses: with Redis down a node infers afresh rather than answering 503. */
export function redisCacheEntries(redis: RedisLink): SharedEntries {
  return {
    read: (name) => redis.run((client) => client.get(keys.cacheEntry(name))).then((text) => text ?? undefined),
    async write(name, text) {
      if (Buffer.byteLength(text) > MAX_ENTRY_BYTES) return;
      await redis.run((client) => client.set(keys.cacheEntry(name), text, { expiration: { type: 'PX', value: ENTRY_TTL_MS } }));
    },
    async remove(name) {
      await redis.run((client) => client.del(keys.cacheEntry(name)));
    },
  };
}

/** The cache secret of a cluster node: DECKHAND_CACHE_SECRET, else one drawn from the cluster secret (the same on every node). */
export function clusterCacheSecret(cacheSecret: string | undefined, clusterSecret: string): string {
  return cacheSecret ?? createHmac('sha256', clusterSecret).update('deckhand act and agent cache').digest('hex');
}

/** Each time Redis is reachable: the first node's digest stays; a node whose secret differs logs an error (never the secret). */
export function checkCacheSecret(redis: RedisLink, secret: string, logger: Logger): void {
  const digest = createHmac('sha256', secret).update('deckhand cache secret id').digest('hex');
  const check = async () => {
    const kept = await redis.run(async (client) => {
      await client.set(keys.cacheSecretId, digest, { condition: 'NX' });
      return client.get(keys.cacheSecretId);
    });
    if (kept !== digest) {
      logger.error('DECKHAND_CACHE_SECRET differs from the other nodes\': this node\'s act and agent cache entries and theirs are misses to each other; set the same value on every node (or unset it on all)');
    }
  };
  redis.onAvailability((up) => {
    if (up) check().catch(() => undefined);
  });
}
