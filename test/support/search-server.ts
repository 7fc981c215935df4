// A loopback stand-in for the web search providers the agent's useSearch can use, speaking their real
// JSON wire formats: SearXNG (GET /search?q=…&format=json → {query, results: [{title, url, content, engine}]})
// and Brave Search (GET /res/v1/web/search?q=… with X-Subscription-Token → {type: "search", web:
// {results: [{title, url, description}]}}). It records every query and the headers it came with.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SearchQuery {
  provider: 'searxng' | 'brave';
  query: string;
  params: Record<string, string>;
  headers: Record<string, string>;
}

export interface SearchServer {
  url: string;
  /** Brave's endpoint on this server (for DECKHAND_BRAVE_SEARCH_URL). */
  braveUrl: string;
  queries: SearchQuery[];
  close(): Promise<void>;
}

export const SEARCH_HITS = [
  { title: 'Deckhand <strong>docs</strong> — getting started', url: 'https://docs.example.test/deckhand', text: 'How to start a session and act on a page.' },
  { title: 'Deckhand on the package registry', url: 'https://registry.example.test/deckhand', text: 'Install the client.' },
];

export async function startSearchServer(braveKey = 'brave-loopback-key'): Promise<SearchServer> {
  const queries: SearchQuery[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const params = Object.fromEntries(url.searchParams);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/search') {
      queries.push({ provider: 'searxng', query: params.q ?? '', params, headers });
      if (params.format !== 'json') return send(403, { error: 'format not allowed' });
      return send(200, {
        query: params.q,
        number_of_results: SEARCH_HITS.length,
        results: SEARCH_HITS.map((hit) => ({ title: hit.title.replace(/<\/?strong>/g, ''), url: hit.url, content: hit.text, engine: 'loopback', score: 1 })),
        answers: [],
        suggestions: [],
      });
    }
    if (url.pathname === '/res/v1/web/search') {
      queries.push({ provider: 'brave', query: params.q ?? '', params, headers });
      if (headers['x-subscription-token'] !== braveKey) return send(401, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', status: 401 } });
      return send(200, {
        type: 'search',
        query: { original: params.q },
        web: { type: 'search', results: SEARCH_HITS.map((hit) => ({ type: 'search_result', title: hit.title, url: hit.url, description: hit.text })) },
      });
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    braveUrl: `${url}/res/v1/web/search`,
    queries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
