import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACT_CACHE_VERSION, cacheDirFromEnv, createActCaches, type ActCacheEntry } from '../src/cache/act-cache.js';
import { actCacheKey, hashKey, normalizeUrl } from '../src/cache/act-cache-key.js';
import { createEntrySigner, SECRET_FILE } from '../src/cache/entry-signer.js';

describe('actCacheKey', () => {
  const base = {
    project: 'project-a',
    instruction: 'type %email% into the Email field',
    url: 'https://shop.example.com/login?b=2&a=1#top',
    options: { variables: { email: 'ada@example.com' }, timeout: 5000 },
    modelIdentity: 'openai/gpt-4.1-mini',
  };

  it('normalises URLs: origin + path, sorted query, no fragment', () => {
    expect(normalizeUrl('https://Shop.Example.com:443/login?b=2&a=1#top')).toBe('https://shop.example.com/login?a=1&b=2');
    expect(normalizeUrl('https://shop.example.com/login#x')).toBe('https://shop.example.com/login');
  });

  it('ignores fragment, query order, timeout, variable values and option key order', () => {
    const key = actCacheKey(base);
    expect(key).toMatch(/^[a-f0-9]{64}$/);
    expect(actCacheKey({ ...base, url: 'https://shop.example.com/login?a=1&b=2' })).toBe(key);
    expect(actCacheKey({ ...base, options: { timeout: 1, variables: { email: 'other@example.com' } } })).toBe(key);
  });

  it('changes with project, instruction, page, variable names, model identity and other options', () => {
    const key = actCacheKey(base);
    expect(actCacheKey({ ...base, project: 'project-b' })).not.toBe(key);
    expect(actCacheKey({ ...base, instruction: 'click Sign in' })).not.toBe(key);
    expect(actCacheKey({ ...base, url: 'https://shop.example.com/signup' })).not.toBe(key);
    expect(actCacheKey({ ...base, options: { variables: { mail: 'ada@example.com' } } })).not.toBe(key);
    expect(actCacheKey({ ...base, modelIdentity: 'anthropic/claude-sonnet-4-5' })).not.toBe(key);
    expect(actCacheKey({ ...base, options: { ...base.options, selector: '#form' } })).not.toBe(key);
  });

  it('does not depend on the model config object (so never on its key)', () => {
    const withKey = { ...base, options: { ...base.options, model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-1' } } };
    const otherKey = { ...base, options: { ...base.options, model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-2' } } };
    expect(actCacheKey(withKey)).toBe(actCacheKey(otherKey));
  });
});

describe('createActCaches', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'deckhand-cache-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const entry = (args: string[] = ['%email%']): ActCacheEntry => ({
    version: ACT_CACHE_VERSION,
    instruction: 'type %email% into the Email field',
    url: 'https://shop.example.com/login',
    modelIdentity: 'openai/gpt-4.1-mini',
    actions: [{ selector: 'xpath=/html/body/form/input[1]', description: 'fill the Email field', method: 'fill', arguments: args }],
    targets: [{ role: 'textbox', name: 'Email' }],
    createdAt: '2025-01-01T00:00:00.000Z',
  });
  const key = (n: number) => n.toString(16).padStart(64, '0');
  const caches = (at: string, maxEntries = 10, secret?: string) => createActCaches({ dir: at, maxEntries, signer: createEntrySigner({ secret, dir: at }) });
  /** Where project `project`'s act entries live under `at`. */
  const folder = (at: string, project = 'p') => join(at, 'projects', hashKey({ project }), 'act');

  it("writes one signed JSON file per key in the project's folder, atomically, and reads it back after a restart", async () => {
    const at = join(dir, 'nested');
    const cache = caches(at).of('p');
    expect(await cache.set(key(1), entry())).toBe(true);
    expect(await readdir(folder(at))).toEqual([`${key(1)}.json`]);
    expect(JSON.parse(await readFile(join(folder(at), `${key(1)}.json`), 'utf8'))).toEqual({ signature: expect.stringMatching(/^[a-f0-9]{64}$/), entry: entry() });
    // The secret made for the signatures is kept beside them, for this user only.
    expect((await stat(join(at, SECRET_FILE))).mode & 0o777).toBe(0o600);
    expect(await caches(at).of('p').get(key(1))).toEqual(entry());
  });

  it('ignores a file it did not sign: edited, unsigned, signed with another secret, or moved from another project', async () => {
    const cache = caches(dir).of('p');
    await cache.set(key(1), entry());
    const file = join(folder(dir), `${key(1)}.json`);
    const written = JSON.parse(await readFile(file, 'utf8')) as { signature: string; entry: ActCacheEntry };
    const logged: string[] = [];
    const fresh = () => caches(dir).of('p', (message) => logged.push(message));

    await writeFile(file, JSON.stringify({ ...written, entry: entry(['attacker']) }));
    expect(await fresh().get(key(1))).toBeUndefined();
    await writeFile(file, JSON.stringify({ entry: entry() }));
    expect(await fresh().get(key(1))).toBeUndefined();
    await writeFile(file, JSON.stringify(entry()));
    expect(await fresh().get(key(1))).toBeUndefined();
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain('%email%');

    await writeFile(file, JSON.stringify(written));
    expect(await caches(dir, 10, 'another-secret').of('p').get(key(1))).toBeUndefined();
    expect(await fresh().get(key(1))).toEqual(entry());

    await mkdir(folder(dir, 'q'), { recursive: true });
    await writeFile(join(folder(dir, 'q'), `${key(1)}.json`), JSON.stringify(written));
    expect(await caches(dir).of('q').get(key(1))).toBeUndefined();
  });

  it("keeps each project's entries apart, in memory too", async () => {
    const all = caches(dir);
    await all.of('p').set(key(1), entry());
    expect(await all.of('q').get(key(1))).toBeUndefined();
    expect(await all.of('p').get(key(1))).toEqual(entry());
  });

  it('keeps placeholders and refuses entries holding a variable value', async () => {
    const cache = caches(dir).of('p');
    await cache.set(key(1), entry(), ['ada@example.com']);
    expect(await readFile(join(folder(dir), `${key(1)}.json`), 'utf8')).toContain('%email%');
    expect(await cache.set(key(2), entry(['ada@example.com']), ['ada@example.com'])).toBe(false);
    expect(await cache.set(key(2), { ...entry(), targets: [{ role: 'button', name: 'Log in as ada@example.com' }] }, ['ada@example.com'])).toBe(false);
    expect(await readdir(folder(dir))).toEqual([`${key(1)}.json`]);
    expect(await cache.get(key(2))).toBeUndefined();
  });

  it('ignores entries of another version and unreadable files', async () => {
    const cache = caches(dir).of('p');
    await mkdir(folder(dir), { recursive: true });
    await writeFile(join(folder(dir), `${key(3)}.json`), JSON.stringify({ signature: '0'.repeat(64), entry: { ...entry(), version: 1 } }));
    await writeFile(join(folder(dir), `${key(4)}.json`), '{"version":1,');
    expect(await cache.get(key(3))).toBeUndefined();
    expect(await cache.get(key(4))).toBeUndefined();
  });

  it('delete removes the entry from memory and disk', async () => {
    const cache = caches(dir).of('p');
    await cache.set(key(5), entry());
    await cache.delete(key(5));
    expect(await cache.get(key(5))).toBeUndefined();
    expect(await readdir(folder(dir))).toEqual([]);
  });

  it('bounds memory with an LRU while the disk keeps everything', async () => {
    const cache = caches(dir, 2).of('p');
    await cache.set(key(1), entry());
    await cache.set(key(2), entry());
    await cache.get(key(1));
    await cache.set(key(3), entry());
    // key(2) was least recently used and left memory; removing its file proves the next read is a miss.
    await rm(join(folder(dir), `${key(2)}.json`));
    expect(await cache.get(key(2))).toBeUndefined();
    await rm(join(folder(dir), `${key(1)}.json`));
    expect(await cache.get(key(1))).toEqual(entry());
  });

  it('rejects keys that are not hashes, so a key can never name a path', async () => {
    const cache = caches(dir, 2).of('p');
    await expect(cache.set('../escape', entry())).rejects.toThrow(/not a cache key/);
  });

  it('takes its directory from DECKHAND_CACHE_DIR, else .deckhand/cache', () => {
    expect(cacheDirFromEnv({ DECKHAND_CACHE_DIR: '/var/cache/deckhand' })).toBe('/var/cache/deckhand');
    expect(cacheDirFromEnv({})).toBe('.deckhand/cache');
  });
});
