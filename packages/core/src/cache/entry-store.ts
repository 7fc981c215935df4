// Versioned cache entries kept on disk (one JSON file per key, written atomically) behind an
// in-memory LRU. The act cache and the agent cache are two of these: each says which version it
// reads and where in an entry a substituted value could land, so an entry holding a secret is
// refused before it reaches the disk.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeckhandError } from '../errors.js';
import { maskSecrets } from '../secrets/mask-secrets.js';

export interface EntryStore<Entry> {
  get(key: string): Promise<Entry | undefined>;
  /**
   * Stores an entry unless it contains one of `forbidden` (the session's secrets): a value that
   * slipped into an entry must not reach the disk. Returns whether it was stored.
   */
  set(key: string, entry: Entry, forbidden?: string[]): Promise<boolean>;
  /** Drops an entry whose replay failed verification, so the next call re-infers. */
  delete(key: string): Promise<void>;
}

export interface EntryStoreOptions<Entry> {
  /** Where entry files go; the empty string keeps entries in memory only. */
  dir: string;
  /** Entries kept in memory; the disk holds all. */
  maxEntries: number;
  /** The entry format this store reads: a file of another version is a miss, not a misreading. */
  version: number;
  /** Every text in an entry where a substituted variable value could land. */
  texts(entry: Entry): string[];
}

export function createEntryStore<Entry extends { version: number }>({ dir, maxEntries, version, texts }: EntryStoreOptions<Entry>): EntryStore<Entry> {
  const memory = new Map<string, Entry>();
  const remember = (key: string, entry: Entry) => {
    memory.delete(key);
    memory.set(key, entry);
    while (memory.size > maxEntries) memory.delete(memory.keys().next().value!);
  };
  const fileOf = (key: string) => {
    if (!/^[a-f0-9]{64}$/.test(key)) throw new DeckhandError('internal_error', `not a cache key: ${key.slice(0, 80)}`);
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
      let entry: Entry;
      try {
        entry = JSON.parse(await readFile(fileOf(key), 'utf8')) as Entry;
      } catch {
        // Missing or unreadable: a miss, and the caller infers afresh.
        return undefined;
      }
      if (entry?.version !== version) return undefined;
      remember(key, entry);
      return entry;
    },

    async set(key, entry, forbidden = []) {
      const file = fileOf(key);
      if (containsValue(texts(entry), forbidden)) return false;
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

/** Found where a read-back would mask it: a short value only where it stands alone (mask-secrets.ts). */
export function containsValue(texts: string[], values: string[]): boolean {
  return texts.some((text) => maskSecrets(text, values) !== text);
}
