// A web search through the provider the server is configured with, in that provider's own wire
// format: SearXNG's JSON API (GET <url>/search?q=…&format=json → {results: [{title, url, content}]})
// or Brave Search (GET <url>?q=… with X-Subscription-Token → {web: {results: [{title, url, description}]}}).
import type { SearchProvider } from '../config.js';
import { DeckhandError } from '../errors.js';

/** Results handed back: enough to choose a page, short enough not to flood the model's context. */
export const MAX_SEARCH_RESULTS = 8;

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export async function webSearch(provider: SearchProvider, query: string, signal: AbortSignal): Promise<SearchResult[]> {
  const request: { url: string; headers: Record<string, string> } =
    provider.kind === 'searxng'
      ? { url: searxngUrl(provider.url, query), headers: { accept: 'application/json' } }
      : { url: braveUrl(provider.url, query), headers: { accept: 'application/json', 'x-subscription-token': provider.apiKey } };
  let response: Response;
  try {
    response = await fetch(request.url, { headers: request.headers, signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new DeckhandError('navigation_failed', `web search failed: the ${provider.kind} search provider could not be reached`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DeckhandError('navigation_failed', `web search failed: the ${provider.kind} search provider answered ${response.status}`);
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, any> | undefined;
  const items: Array<Record<string, unknown>> = (provider.kind === 'searxng' ? body?.results : body?.web?.results) ?? [];
  if (!Array.isArray(items)) throw new DeckhandError('navigation_failed', `web search failed: the ${provider.kind} search provider answered something other than results`);
  return items
    .filter((item) => typeof item.url === 'string')
    .slice(0, MAX_SEARCH_RESULTS)
    .map((item) => ({
      title: text(item.title),
      url: item.url as string,
      snippet: text(provider.kind === 'searxng' ? item.content : item.description),
    }));
}

function searxngUrl(base: string, query: string): string {
  const url = new URL('search', base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  return url.href;
}

function braveUrl(endpoint: string, query: string): string {
  const url = new URL(endpoint);
  url.searchParams.set('q', query);
  url.searchParams.set('count', String(MAX_SEARCH_RESULTS));
  return url.href;
}

/** Brave marks matches with <strong>; the model gets plain text. */
function text(value: unknown): string {
  return typeof value === 'string' ? value.replace(/<\/?strong>/g, '').trim() : '';
}
