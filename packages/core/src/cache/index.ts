// The act cache: keys, and versioned entries on disk behind an in-memory LRU.
export { actCacheKey, normalizeUrl, type ActCacheKeyInput } from './act-cache-key.js';
export {
  ACT_CACHE_VERSION,
  DEFAULT_CACHE_DIR,
  cacheDirFromEnv,
  createActCache,
  type ActCache,
  type ActCacheEntry,
  type ActCacheOptions,
  type CachedTarget,
} from './act-cache.js';
