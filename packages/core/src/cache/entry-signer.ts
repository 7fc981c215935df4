// Signs cache entries with the server's secret (HMAC-SHA256), so an entry on disk that this server
// did not write (planted through a download path, copied from another project, edited by hand) is
// told apart from its own and ignored. The secret is DECKHAND_CACHE_SECRET, else one made once and
// kept beside the entries (0600), so entries survive restarts; with the cache in memory, one per process.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface EntrySigner {
  sign(material: string): Promise<string>;
  verify(material: string, signature: unknown): Promise<boolean>;
}

/** The file, in the cache directory, that holds the generated secret. */
export const SECRET_FILE = '.cache-secret';

export function createEntrySigner({ secret, dir }: { secret?: string; dir: string }): EntrySigner {
  let key: Promise<Buffer> | undefined;
  const load = async () => (secret ? Buffer.from(secret, 'utf8') : dir ? keptSecret(dir) : randomBytes(32));
  // A file that could not be read is tried again next time, not remembered as broken.
  const keyOf = () =>
    (key ??= load().catch((error: unknown) => {
      key = undefined;
      throw error;
    }));
  const mac = async (material: string) => createHmac('sha256', await keyOf()).update(material).digest();
  return {
    sign: async (material) => (await mac(material)).toString('hex'),
    async verify(material, signature) {
      if (typeof signature !== 'string' || !/^[a-f0-9]{64}$/.test(signature)) return false;
      return timingSafeEqual(await mac(material), Buffer.from(signature, 'hex'));
    },
  };
}

/** Reads the secret file, or makes it: written whole beside it and linked into place, so a second writer reads the first one's. */
async function keptSecret(dir: string): Promise<Buffer> {
  const file = join(dir, SECRET_FILE);
  const existing = await readSecret(file);
  if (existing) return existing;
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${SECRET_FILE}.${randomUUID()}.tmp`);
  await writeFile(tmp, randomBytes(32).toString('hex'), { mode: 0o600 });
  try {
    await link(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(tmp, { force: true });
  }
  const made = await readSecret(file);
  if (!made) throw new Error(`the cache secret file ${file} is not 64 hex digits`);
  return made;
}

async function readSecret(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!/^[a-f0-9]{64}$/.test(text)) throw new Error(`the cache secret file ${file} is not 64 hex digits`);
  return Buffer.from(text, 'hex');
}
