// The act cache: keys, and versioned entries on disk behind an in-memory LRU.
export { actCacheKey, normalizeUrl } from './act-cache-key.js';
export {
  ACT_CACHE_VERSION,
  cacheDirFromEnv,
  createActCache,
  type ActCache,
  type ActCacheEntry,
  type CachedTarget,
} from './act-cache.js';
