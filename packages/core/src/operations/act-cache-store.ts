// One act cache per core configuration, i.e. per server, each project's entries apart: a project's
// sessions share what its earlier ones resolved. One signer per server signs act and agent entries.
import { createActCaches, createEntrySigner, type ActCaches, type EntrySigner } from '../cache/index.js';
import type { CoreConfig } from '../config.js';

const caches = new WeakMap<CoreConfig, ActCaches>();
const signers = new WeakMap<CoreConfig, EntrySigner>();

export function actCacheFor(config: CoreConfig): ActCaches {
  let cache = caches.get(config);
  if (!cache) {
    cache = createActCaches({ dir: config.cacheDir, maxEntries: config.cacheMaxEntries, signer: cacheSignerFor(config), shared: config.sharedCache });
    caches.set(config, cache);
  }
  return cache;
}

/** The server's signer of cache entries: DECKHAND_CACHE_SECRET, else the secret kept in the cache directory. */
export function cacheSignerFor(config: CoreConfig): EntrySigner {
  let signer = signers.get(config);
  if (!signer) {
    signer = createEntrySigner({ secret: config.cacheSecret, dir: config.cacheDir });
    signers.set(config, signer);
  }
  return signer;
}
