// The search providers' wire formats, against a loopback server that speaks them: SearXNG's JSON API
// and Brave Search; a provider that refuses or cannot be reached is a DeckhandError that never names
// the key; the environment picks the provider (SearXNG wins).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchProviderFromEnv } from '../src/config.js';
import { isDeckhandError } from '../src/errors.js';
import { webSearch } from '../src/tools/web-search.js';
import { closedPortUrl } from '../../../test/support/closed-port.js';
import { startSearchServer, type SearchServer } from '../../../test/support/search-server.js';

const KEY = 'brave-unit-key-8812';
let server: SearchServer;
beforeAll(async () => {
  server = await startSearchServer(KEY);
});
afterAll(() => server.close());
const signal = new AbortController().signal;

describe('webSearch', () => {
  it('SearXNG: /search?q=…&format=json, results as title, url and snippet', async () => {
    const results = await webSearch({ kind: 'searxng', url: `${server.url}/` }, 'deckhand docs', signal);
    expect(results[0]).toEqual({ title: 'Deckhand docs — getting started', url: 'https://docs.example.test/deckhand', snippet: 'How to start a session and act on a page.' });
    expect(server.queries.at(-1)).toMatchObject({ provider: 'searxng', query: 'deckhand docs', params: { format: 'json' } });
  });

  it('Brave: the key as X-Subscription-Token, <strong> marks removed', async () => {
    const results = await webSearch({ kind: 'brave', url: server.braveUrl, apiKey: KEY }, 'deckhand', signal);
    expect(results.map((r) => r.title)).toEqual(['Deckhand docs — getting started', 'Deckhand on the package registry']);
    expect(server.queries.at(-1)!.headers['x-subscription-token']).toBe(KEY);
  });

  it('a refusal or an unreachable provider is a DeckhandError that never names the key', async () => {
    const refused = await webSearch({ kind: 'brave', url: server.braveUrl, apiKey: `${KEY}-wrong` }, 'x', signal).catch((e: unknown) => e);
    expect(isDeckhandError(refused) && refused.message).toBe('web search failed: the brave search provider answered 401');
    expect(String((refused as Error).message)).not.toContain(KEY);
    const unreachable = await webSearch({ kind: 'searxng', url: await closedPortUrl() }, 'x', signal).catch((e: unknown) => e);
    expect(isDeckhandError(unreachable) && unreachable.message).toMatch(/could not be reached/);
  });
});

describe('searchProviderFromEnv', () => {
  it('SearXNG wins, Brave needs its key, none is undefined', () => {
    expect(searchProviderFromEnv({ DECKHAND_SEARCH_URL: 'http://s', BRAVE_SEARCH_API_KEY: 'k' })).toEqual({ kind: 'searxng', url: 'http://s' });
    expect(searchProviderFromEnv({ BRAVE_SEARCH_API_KEY: 'k' })).toEqual({ kind: 'brave', url: 'https://api.search.brave.com/res/v1/web/search', apiKey: 'k' });
    expect(searchProviderFromEnv({ DECKHAND_BRAVE_SEARCH_URL: 'http://b' })).toBeUndefined();
  });
});
