// The web search tool (useSearch): one query to the server's search provider, its top results back.
import { z } from 'zod';
import type { SearchProvider } from '../config.js';
import { defineTool } from './tool.js';
import { webSearch } from './web-search.js';

export function searchTool(provider: SearchProvider) {
  return defineTool({
    name: 'search',
    description: 'Search the web and get the top results (title, URL and snippet), e.g. to find which page to open.',
    input: z.object({ query: z.string().min(1).max(400).describe('What to search for, e.g. "Deckhand browser automation docs"') }),
    readOnly: true,
    openWorld: true,
    capability: 'agent',
    handle: async ({ query }, scope) => ({ query, results: await webSearch(provider, query, scope.signal) }),
  });
}
