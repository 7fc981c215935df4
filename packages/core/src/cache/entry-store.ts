// Versioned cache entries kept per project: on disk one JSON file per key under the project's own
// folder (<dir>/projects/<project digest>/<kind>/), written atomically and signed by the server,
// behind an in-memory LRU. The act cache and the agent cache are two of these: each says which
// version it reads and where in an entry a substituted value could land, so an entry holding a
// secret is refused before it reaches the disk. A file the server did not sign for this project,
// kind and key is a miss, never replayed.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeckhandError } from '../errors.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { hashKey, stableJson } from './act-cache-key.js';
import type { EntrySigner } from './entry-signer.js';
import type { SharedEntries } from './shared-entries.js';

/** One project's entries. */
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

/** Every project's entries of one kind; a project sees only its own. */
export interface EntryStores<Entry> {
  /** The project's store; `log` hears (at debug, without content) why a file on disk was ignored. */
  of(project: string, log?: (message: string) => void): EntryStore<Entry>;
}

export interface EntryStoreOptions<Entry> {
  /** The cache directory; the empty string keeps entries in memory only. */
  dir: string;
  /** What the entries are ('act', 'agent'): their folder in a project's, and part of what is signed. */
  kind: string;
  /** Entries kept in memory, all projects together; the disk holds all. */
  maxEntries: number;
  /** The entry format this store reads: a file of another version is a miss, not a misreading. */
  version: number;
  /** Every text in an entry where a substituted variable value could land. */
  texts(entry: Entry): string[];
  signer: EntrySigner;
  /** A cluster's shared store, used instead of the disk (`dir` is then ignored). */
  shared?: SharedEntries;
}

/** An entry as written to disk: the entry and the server's signature over it, its project, kind and key. */
interface SignedFile<Entry> {
  signature: string;
  entry: Entry;
}

export function createEntryStores<Entry extends { version: number }>({ dir, kind, maxEntries, version, texts, signer, shared }: EntryStoreOptions<Entry>): EntryStores<Entry> {
  const memory = new Map<string, Entry>();
  const remember = (slot: string, entry: Entry) => {
    memory.delete(slot);
    memory.set(slot, entry);
    while (memory.size > maxEntries) memory.delete(memory.keys().next().value!);
  };
  const checked = (key: string) => {
    if (!/^[a-f0-9]{64}$/.test(key)) throw new DeckhandError('internal_error', `not a cache key: ${key.slice(0, 80)}`);
    return key;
  };
  const signed = (project: string, key: string, entry: Entry) => stableJson({ project, kind, key, entry });

  return {
    of(project, log = () => undefined) {
      const digest = hashKey({ project });
      const folder = join(dir, 'projects', digest, kind);
      const slotOf = (key: string) => `${project}\n${checked(key)}`;
      const fileOf = (key: string) => join(folder, `${checked(key)}.json`);
      const nameOf = (key: string) => `${kind}/${digest}/${checked(key)}`;
      /** The stored text of an entry (shared store, else disk), undefined when there is none or it cannot be read. */
      const load = (key: string): Promise<string | undefined> =>
        (shared ? shared.read(nameOf(key)) : readFile(fileOf(key), 'utf8')).catch(() => undefined);

      return {
        async get(key) {
          const slot = slotOf(key);
          const hit = memory.get(slot);
          if (hit) {
            remember(slot, hit);
            return hit;
          }
          if (!dir && !shared) return undefined;
          let file: SignedFile<Entry>;
          try {
            file = JSON.parse((await load(key)) ?? '') as SignedFile<Entry>;
          } catch {
            // Missing or unreadable: a miss, and the caller infers afresh.
            return undefined;
          }
          const entry = file?.entry;
          if (entry?.version !== version) return undefined;
          let genuine: boolean;
          try {
            genuine = await signer.verify(signed(project, key, entry), file.signature);
          } catch (error) {
            log(`${kind} cache entry not read: the cache secret cannot be read (${(error as Error).message})`);
            return undefined;
          }
          if (!genuine) {
            log(`ignored a cache file (${kind}) this server did not sign for this project`);
            return undefined;
          }
          remember(slot, entry);
          return entry;
        },

        async set(key, entry, forbidden = []) {
          const file = fileOf(key);
          if (containsValue(texts(entry), forbidden)) return false;
          remember(slotOf(key), entry);
          if (!dir && !shared) return true;
          const content: SignedFile<Entry> = { signature: await signer.sign(signed(project, key, entry)), entry };
          if (shared) {
            // Kept here either way; the other nodes see it when the shared store takes it.
            await shared.write(nameOf(key), JSON.stringify(content)).catch(() => undefined);
            return true;
          }
          await mkdir(folder, { recursive: true });
          // Write beside the target then rename: readers see the old file or the new one, never half of one.
          const tmp = join(folder, `.${key}.${randomUUID()}.tmp`);
          await writeFile(tmp, JSON.stringify(content), { mode: 0o600 });
          await rename(tmp, file);
          return true;
        },

        async delete(key) {
          memory.delete(slotOf(key));
          if (shared) await shared.remove(nameOf(key)).catch(() => undefined);
          else if (dir) await rm(fileOf(key), { force: true });
        },
      };
    },
  };
}

/** Found where a read-back would mask it: a short value only where it stands alone (mask-secrets.ts). */
export function containsValue(texts: string[], values: string[]): boolean {
  return texts.some((text) => maskSecrets(text, values) !== text);
}
