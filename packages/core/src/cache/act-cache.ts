// Resolved act steps, in an entry store (entry-store.ts). Entries hold %name% placeholders, never
// variable values, and carry a version so a format change invalidates old files instead of misreading them.
import type { Action } from '../types.js';
import type { EntrySigner } from './entry-signer.js';
import { createEntryStores, type EntryStore, type EntryStores } from './entry-store.js';
import type { SharedEntries } from './shared-entries.js';

export const ACT_CACHE_VERSION = 2;
export const DEFAULT_CACHE_DIR = '.deckhand/cache';

export interface ActCacheEntry {
  version: typeof ACT_CACHE_VERSION;
  instruction: string;
  /** Normalised URL the steps were resolved on. */
  url: string;
  modelIdentity: string;
  /** The steps to replay; arguments keep their %name% placeholders. */
  actions: Action[];
  /** What each step's selector named when it was resolved (null for page-level steps): a replay checks it. */
  targets: Array<CachedTarget | null>;
  createdAt: string;
}

/** An element as the snapshot saw it: enough to tell that a selector now names something else. */
export interface CachedTarget {
  role: string;
  name: string;
}

/** One project's act cache. */
export type ActCache = EntryStore<ActCacheEntry>;
/** The server's act cache: each project's, apart. */
export type ActCaches = EntryStores<ActCacheEntry>;

/** The cache directory from server config: DECKHAND_CACHE_DIR (empty: memory only), else .deckhand/cache. */
export function cacheDirFromEnv(env: Record<string, string | undefined>): string {
  return env.DECKHAND_CACHE_DIR ?? DEFAULT_CACHE_DIR;
}

export function createActCaches({ dir, maxEntries, signer, shared }: { dir: string; maxEntries: number; signer: EntrySigner; shared?: SharedEntries }): ActCaches {
  return createEntryStores<ActCacheEntry>({ dir, kind: 'act', maxEntries, version: ACT_CACHE_VERSION, texts: actTexts, signer, shared });
}

/** Where a substituted value would land: an action's arguments or description, or a target's name. */
function actTexts(entry: ActCacheEntry): string[] {
  return [
    entry.instruction,
    entry.url,
    ...entry.actions.flatMap((a) => [...(a.arguments ?? []), a.description ?? '']),
    ...entry.targets.map((t) => t?.name ?? ''),
  ];
}
