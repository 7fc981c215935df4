// Resolved act steps kept on disk (one JSON file per key, written atomically) behind an in-memory
// LRU. Entries hold %name% placeholders, never variable values, and carry a version so a format
// change invalidates old files instead of misreading them.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeckhandError } from '../errors.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import type { Action } from '../types.js';

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

export interface ActCache {
  get(key: string): Promise<ActCacheEntry | undefined>;
  /**
   * Stores an entry unless it contains one of `forbidden` (the session's secrets): a value that
   * slipped into an action must not reach the disk. Returns whether it was stored.
   */
  set(key: string, entry: ActCacheEntry, forbidden?: string[]): Promise<boolean>;
  /** Drops an entry whose replay failed verification, so the next call re-infers. */
  delete(key: string): Promise<void>;
}

export interface ActCacheOptions {
  /** Where entry files go; the empty string keeps entries in memory only. */
  dir: string;
  /** Entries kept in memory; the disk holds all. */
  maxEntries: number;
}

/** The cache directory from server config: DECKHAND_CACHE_DIR (empty: memory only), else .deckhand/cache. */
export function cacheDirFromEnv(env: Record<string, string | undefined>): string {
  return env.DECKHAND_CACHE_DIR ?? DEFAULT_CACHE_DIR;
}

export function createActCache({ dir, maxEntries }: ActCacheOptions): ActCache {
  const memory = new Map<string, ActCacheEntry>();
  const remember = (key: string, entry: ActCacheEntry) => {
    memory.delete(key);
    memory.set(key, entry);
    while (memory.size > maxEntries) memory.delete(memory.keys().next().value!);
  };
  const fileOf = (key: string) => {
    if (!/^[a-f0-9]{64}$/.test(key)) throw new DeckhandError('internal_error', `not an act cache key: ${key.slice(0, 80)}`);
    return join(dir, `${key}.json`);
  };

  return {
    async get(key) {
      const hit = memory.get(key);
      if (hit) {
        remember(key, hit);
        return hit;
      }
      if (!dir) return undefined;
      let entry: ActCacheEntry;
      try {
        entry = JSON.parse(await readFile(fileOf(key), 'utf8')) as ActCacheEntry;
      } catch {
        // Missing or unreadable: a miss, and the caller infers afresh.
        return undefined;
      }
      if (entry.version !== ACT_CACHE_VERSION) return undefined;
      remember(key, entry);
      return entry;
    },

    async set(key, entry, forbidden = []) {
      const file = fileOf(key);
      if (containsValue(entry, forbidden)) return false;
      remember(key, entry);
      if (!dir) return true;
      await mkdir(dir, { recursive: true });
      // Write beside the target then rename: readers see the old file or the new one, never half of one.
      const tmp = join(dir, `.${key}.${randomUUID()}.tmp`);
      await writeFile(tmp, JSON.stringify(entry), { mode: 0o600 });
      await rename(tmp, file);
      return true;
    },

    async delete(key) {
      memory.delete(key);
      if (dir) await rm(fileOf(key), { force: true });
    },
  };
}

/** Where a substituted value would land: an action's arguments or description, or a target's name. */
function containsValue(entry: ActCacheEntry, values: string[]): boolean {
  const texts = [
    entry.instruction,
    entry.url,
    ...entry.actions.flatMap((a) => [...(a.arguments ?? []), a.description ?? '']),
    ...entry.targets.map((t) => t?.name ?? ''),
  ];
  // Found where a read-back would mask it: a short value only where it stands alone (mask-secrets.ts).
  return texts.some((text) => maskSecrets(text, values) !== text);
}
