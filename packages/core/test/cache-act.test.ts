import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACT_CACHE_VERSION, cacheDirFromEnv, createActCache, type ActCacheEntry } from '../src/cache/act-cache.js';
import { actCacheKey, normalizeUrl } from '../src/cache/act-cache-key.js';

describe('actCacheKey', () => {
  const base = {
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

  it('changes with instruction, page, variable names, model identity and other options', () => {
    const key = actCacheKey(base);
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

describe('createActCache', () => {
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

  it('writes one JSON file per key, atomically, and reads it back from a fresh cache', async () => {
    const cache = createActCache({ dir: join(dir, 'nested'), maxEntries: 10 });
    expect(await cache.set(key(1), entry())).toBe(true);
    const files = await readdir(join(dir, 'nested'));
    expect(files).toEqual([`${key(1)}.json`]);
    const reopened = createActCache({ dir: join(dir, 'nested'), maxEntries: 10 });
    expect(await reopened.get(key(1))).toEqual(entry());
  });

  it('keeps placeholders and refuses entries holding a variable value', async () => {
    const cache = createActCache({ dir, maxEntries: 10 });
    await cache.set(key(1), entry(), ['ada@example.com']);
    expect(await readFile(join(dir, `${key(1)}.json`), 'utf8')).toContain('%email%');
    expect(await cache.set(key(2), entry(['ada@example.com']), ['ada@example.com'])).toBe(false);
    expect(await cache.set(key(2), { ...entry(), targets: [{ role: 'button', name: 'Log in as ada@example.com' }] }, ['ada@example.com'])).toBe(false);
    expect(await readdir(dir)).toEqual([`${key(1)}.json`]);
    expect(await cache.get(key(2))).toBeUndefined();
  });

  it('ignores entries of another version and unreadable files', async () => {
    const cache = createActCache({ dir, maxEntries: 10 });
    await writeFile(join(dir, `${key(3)}.json`), JSON.stringify({ ...entry(), version: 1 }));
    await writeFile(join(dir, `${key(4)}.json`), '{"version":1,');
    expect(await cache.get(key(3))).toBeUndefined();
    expect(await cache.get(key(4))).toBeUndefined();
  });

  it('delete removes the entry from memory and disk', async () => {
    const cache = createActCache({ dir, maxEntries: 10 });
    await cache.set(key(5), entry());
    await cache.delete(key(5));
    expect(await cache.get(key(5))).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });

  it('bounds memory with an LRU while the disk keeps everything', async () => {
    const cache = createActCache({ dir, maxEntries: 2 });
    await cache.set(key(1), entry());
    await cache.set(key(2), entry());
    await cache.get(key(1));
    await cache.set(key(3), entry());
    // key(2) was least recently used and left memory; removing its file proves the next read is a miss.
    await rm(join(dir, `${key(2)}.json`));
    expect(await cache.get(key(2))).toBeUndefined();
    await rm(join(dir, `${key(1)}.json`));
    expect(await cache.get(key(1))).toEqual(entry());
  });

  it('rejects keys that are not hashes, so a key can never name a path', async () => {
    const cache = createActCache({ dir, maxEntries: 2 });
    await expect(cache.set('../escape', entry())).rejects.toThrow(/not a cache key/);
  });

  it('takes its directory from DECKHAND_CACHE_DIR, else .deckhand/cache', () => {
    expect(cacheDirFromEnv({ DECKHAND_CACHE_DIR: '/var/cache/deckhand' })).toBe('/var/cache/deckhand');
    expect(cacheDirFromEnv({})).toBe('.deckhand/cache');
  });
});
