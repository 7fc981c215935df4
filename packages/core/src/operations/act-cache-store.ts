// One act cache per core configuration, i.e. per server: sessions share what earlier ones resolved.
import { createActCache, type ActCache } from '../cache/index.js';
import type { CoreConfig } from '../config.js';

const caches = new WeakMap<CoreConfig, ActCache>();

export function actCacheFor(config: CoreConfig): ActCache {
  let cache = caches.get(config);
  if (!cache) {
    cache = createActCache({ dir: config.cacheDir, maxEntries: config.cacheMaxEntries });
    caches.set(config, cache);
  }
  return cache;
}
