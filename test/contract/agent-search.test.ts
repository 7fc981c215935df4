// useSearch: with a search provider configured the agent gets a `search` tool that asks it in the
// provider's own wire format (SearXNG's JSON API, Brave Search) and hands the results to the model;
// without one, useSearch is a 400 before anything runs. Without useSearch the tool is not offered.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptedReply } from '../support/model-server';
import { startSearchServer, type SearchServer } from '../support/search-server';
import { expectError, expectOk, useContract, type ContractContext } from '../support/contract';

const BRAVE_KEY = 'brave-key-never-echoed-5521';
let model: ModelServer;
let search: SearchServer;
const searxEnv: Record<string, string> = {};
const braveEnv: Record<string, string> = {};
beforeAll(async () => {
  model = await startModelServer();
  search = await startSearchServer(BRAVE_KEY);
  searxEnv.DECKHAND_SEARCH_URL = search.url;
  Object.assign(braveEnv, { BRAVE_SEARCH_API_KEY: BRAVE_KEY, DECKHAND_BRAVE_SEARCH_URL: search.braveUrl });
});
afterAll(async () => {
  await model.close();
  await search.close();
});
const searx = useContract(searxEnv);
const brave = useContract(braveEnv);
const none = useContract();
beforeEach(() => {
  model.requests.length = 0;
  search.queries.length = 0;
});

const json = { 'x-stream-response': 'false' };
const llm = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-search-test', baseURL: `${model.url}/v1` });
const searchThenDone: ScriptedReply[] = [
  { toolCalls: [{ name: 'search', args: { query: 'deckhand getting started' } }] },
  { toolCalls: [{ name: 'done', args: { success: true, message: 'Found the docs' } }] },
];

async function runSearch(ctx: ContractContext, useSearch = true) {
  const id = await ctx.sessionOn('agent-cache.html');
  const reply = await ctx.api.call('agentExecute', {
    id,
    body: { agentConfig: { model: llm() }, executeOptions: { instruction: 'Find the Deckhand docs', useSearch } },
    headers: json,
  });
  expectOk(reply);
  return reply.body.data.result;
}

describe('agentExecute useSearch', () => {
  it('SearXNG: the model calls search, the provider gets the query in its JSON API, the model reads the results', async () => {
    model.script(searchThenDone);
    const result = await runSearch(searx);
    expect(result, result.message).toMatchObject({ success: true, message: 'Found the docs' });
    expect(result.actions.map((a: { type: string; success: boolean }) => [a.type, a.success])).toEqual([['search', true], ['done', true]]);
    expect(search.queries).toEqual([expect.objectContaining({ provider: 'searxng', query: 'deckhand getting started', params: expect.objectContaining({ format: 'json' }) })]);
    expect(model.requests[0]!.raw).toContain('"search"');
    const heard = model.requests[1]!.raw;
    expect(heard).toContain('https://docs.example.test/deckhand');
    expect(heard).toContain('How to start a session and act on a page.');
  });

  it('Brave Search: the key travels as X-Subscription-Token only; results reach the model as plain text', async () => {
    model.script(searchThenDone);
    const result = await runSearch(brave);
    expect(result, result.message).toMatchObject({ success: true });
    expect(search.queries).toEqual([expect.objectContaining({ provider: 'brave', query: 'deckhand getting started' })]);
    expect(search.queries[0]!.headers['x-subscription-token']).toBe(BRAVE_KEY);
    const heard = model.requests[1]!.raw;
    expect(heard).toContain('Deckhand docs — getting started');
    expect(heard).not.toContain('<strong>');
    for (const request of model.requests) expect(request.raw).not.toContain(BRAVE_KEY);
  });

  it('without useSearch the search tool is not offered', async () => {
    model.script([{ toolCalls: [{ name: 'done', args: { success: true, message: 'ok' } }] }]);
    await runSearch(searx, false);
    expect(model.requests[0]!.raw).toContain('"think"');
    expect(model.requests[0]!.raw).not.toContain('"search"');
    expect(search.queries).toHaveLength(0);
  });

  it('with no provider configured, useSearch is a 400 before anything runs', async () => {
    const id = await none.sessionOn('agent-cache.html');
    const reply = await none.api.call('agentExecute', {
      id,
      body: { agentConfig: { model: llm() }, executeOptions: { instruction: 'Find the Deckhand docs', useSearch: true } },
      headers: json,
    });
    const body = expectError(reply, 400, 'validation_error');
    expect(body.issues).toEqual([expect.objectContaining({ path: 'executeOptions.useSearch' })]);
    expect(model.requests).toHaveLength(0);
  });
});
