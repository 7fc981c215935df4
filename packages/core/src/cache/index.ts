// The act cache and the entry store it shares with the agent cache: keys, and versioned entries on
// disk behind an in-memory LRU.
export { actCacheKey, hashKey, normalizeUrl } from './act-cache-key.js';
export {
  ACT_CACHE_VERSION,
  cacheDirFromEnv,
  createActCache,
  type ActCache,
  type ActCacheEntry,
  type CachedTarget,
} from './act-cache.js';
export { createEntryStore, type EntryStore } from './entry-store.js';
