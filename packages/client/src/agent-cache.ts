// enableCaching: the agent cache entries a server hands back (`cacheEntry`) are kept as
// <cacheDir>/agent/<cacheKey>.json, a record for the user (the wire's cache dir). The in-process core
// of a LOCAL or useAPI: false run keeps its own signed entries under <cacheDir>/projects/ and does not
// replay these. The entry is opaque here; it is written with the client's secrets masked, atomically.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { components } from '@deckhand/contract';
import type { Secrets } from './secrets';

export type AgentCacheEntry = components['schemas']['AgentCacheEntryOutput'];

/** A key that is safe as a file name; anything else is not written (the server's keys are hex digests). */
const SAFE_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/** Writes the entry; answers the file it wrote, or undefined for a key that cannot be a file name. */
export async function keepAgentCacheEntry(cacheDir: string, { cacheKey, entry }: AgentCacheEntry, secrets: Secrets): Promise<string | undefined> {
  if (!SAFE_KEY.test(cacheKey)) return undefined;
  const dir = join(cacheDir, 'agent');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${cacheKey}.json`);
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, JSON.stringify(secrets.maskValue(entry ?? null)));
  await rename(temporary, file);
  return file;
}
