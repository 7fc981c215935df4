// The act cache and the entry store it shares with the agent cache: keys, and versioned, signed
// entries per project on disk behind an in-memory LRU.
export { actCacheKey, hashKey, normalizeUrl } from './act-cache-key.js';
export {
  ACT_CACHE_VERSION,
  cacheDirFromEnv,
  createActCaches,
  type ActCache,
  type ActCaches,
  type ActCacheEntry,
  type CachedTarget,
} from './act-cache.js';
export { createEntrySigner, type EntrySigner } from './entry-signer.js';
export { createEntryStores, type EntryStore, type EntryStores } from './entry-store.js';
export type { SharedEntries } from './shared-entries.js';
