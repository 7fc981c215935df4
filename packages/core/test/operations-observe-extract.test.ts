// observe and extract through a Session on real Chromium: the built-in model for shapes, the loopback
// model server for usage accounting and the model key order; plus the model env the config captures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../test/support/model-server.js';
import { ACT_CACHE_VERSION, createActCaches, type ActCacheEntry } from '../src/cache/act-cache.js';
import { createEntrySigner } from '../src/cache/entry-signer.js';
import { loadCoreConfigFromEnv } from '../src/config.js';
import type { Session } from '../src/session/session.js';
import { opContext, startFixtureServer, testManager, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
let model: ModelServer;
let session: Session;
const manager = testManager({ modelEnv: { ANTHROPIC_API_KEY: 'ant-env-key' } });

beforeAll(async () => {
  [fixtures, model] = await Promise.all([startFixtureServer(), startModelServer()]);
  session = await manager.start('p1', { modelName: 'builtin/offline' }, { modelApiKey: 'session-key' });
});
afterAll(async () => {
  await manager.shutdown();
  await Promise.all([fixtures.close(), model.close()]);
});

const open = (path: string) => session.navigate({ url: fixtures.url(path) }, opContext());

describe('observe', () => {
  it('lists matching elements as Actions with xpath selectors and backend node ids', async () => {
    await open('/select.html');
    const actions = await session.observe({ instruction: 'select "Blue" from Color' }, opContext());
    expect(actions).toEqual([
      expect.objectContaining({ selector: expect.stringMatching(/^xpath=\/html\/body(\[1\])?\/select/), method: 'selectOptionFromDropdown', arguments: ['Blue'], backendNodeId: expect.any(Number) }),
    ]);
  });
});

describe('extract', () => {
  it('refuses an answer that does not fit the schema (the built-in model says the page does not fit)', async () => {
    await open('/forms.html');
    await expect(session.extract({ schema: { type: 'object', properties: { heading: { type: 'number' } }, required: ['heading'] } }, opContext())).rejects.toMatchObject({
      code: 'unprocessable',
      message: expect.stringMatching(/does not fit the schema/),
    });
  });
});

describe('model keys and usage', () => {
  it('uses the request key over the session key, and records token usage for replay', async () => {
    await open('/forms.html');
    model.script([{ json: { extraction: 'one' } }, { json: { extraction: 'two' } }]);
    const config = { modelName: 'anthropic/claude-3-5-haiku-latest', baseURL: `${model.url}/v1` };
    await session.extract({ instruction: 'x', options: { model: config } }, { ...opContext(), modelApiKey: 'request-key' });
    await session.extract({ instruction: 'x', options: { model: config } }, opContext());
    expect(model.requests.map((r) => r.headers['x-api-key'])).toEqual(['request-key', 'session-key']);
    const last = session.replay().pages.flatMap((p) => p.actions).at(-1)!;
    expect(last.tokenUsage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), reasoningTokens: 0, cachedInputTokens: 0 });
    expect(last.tokenUsage!.inputTokens).toBeGreaterThan(0);
  });
});

describe('configuration', () => {
  it('captures only model-related variables as the model env, and the cache settings', () => {
    const config = loadCoreConfigFromEnv({ OPENAI_API_KEY: 'k', OLLAMA_BASE_URL: 'u', AWS_REGION: 'r', HOME: '/root', DECKHAND_API_KEYS: 's:p', PATH: '/bin' });
    expect(config.modelEnv).toEqual({ OPENAI_API_KEY: 'k', OLLAMA_BASE_URL: 'u', AWS_REGION: 'r' });
    expect(config.cacheDir).toBe('.deckhand/cache');
    expect(loadCoreConfigFromEnv({ DECKHAND_CACHE_DIR: '' }).cacheDir).toBe('');
    expect(loadCoreConfigFromEnv({ DECKHAND_CACHE_SECRET: 's3' }).cacheSecret).toBe('s3');
    expect(loadCoreConfigFromEnv({ DECKHAND_CACHE_SECRET: 's3' }).modelEnv).toEqual({});
  });

  it('an empty cache dir keeps entries in memory only', async () => {
    const cache = createActCaches({ dir: '', maxEntries: 1, signer: createEntrySigner({ dir: '' }) }).of('p');
    const entry: ActCacheEntry = { version: ACT_CACHE_VERSION, instruction: 'i', url: 'u', modelIdentity: 'm', actions: [{ selector: '#a', arguments: ['%x%'] }], targets: [null], createdAt: 'now' };
    const key = (n: number) => String(n).repeat(64);
    expect(await cache.set(key(1), entry)).toBe(true);
    expect(await cache.get(key(1))).toEqual(entry);
    await cache.set(key(2), entry);
    expect(await cache.get(key(1))).toBeUndefined();
    expect(await cache.set(key(3), { ...entry, actions: [{ selector: '#a', arguments: ['secret'] }] }, ['secret'])).toBe(false);
  });
});
