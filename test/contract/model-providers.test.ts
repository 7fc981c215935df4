// Every ModelConfig form reaches its provider through the HTTP API with the right URL, headers and
// auth (the loopback model server records what each provider would have seen), and the key comes
// from the call, else the x-model-api-key header, else the server's environment.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOOPBACK_ACCESS_TOKEN, startModelServer, type ModelServer } from '../support/model-server';
import { expectOk, useContract } from '../support/contract';

let model: ModelServer;
// Filled in before the Deckhand server starts (this hook is registered first, so it runs first).
const env: Record<string, string> = {};
beforeAll(async () => {
  model = await startModelServer();
  Object.assign(env, { OPENAI_API_KEY: 'sk-server-env-key', OPENAI_BASE_URL: `${model.url}/v1` });
});
afterAll(() => model.close());
const ctx = useContract(env);
beforeEach(() => {
  model.requests.length = 0;
});

const json = { 'x-stream-response': 'false' };

/** An extract with an instruction: the simplest model round trip (the answer is {extraction}). */
async function extractWith(id: string, modelConfig?: unknown, headers: Record<string, string> = {}) {
  model.script({ json: { extraction: 'from the model' } });
  const reply = await ctx.api.call('extract', { id, body: { instruction: 'the heading', options: modelConfig ? { model: modelConfig } : {} }, headers: { ...json, ...headers } });
  expectOk(reply);
  expect(reply.body.data.result).toEqual({ extraction: 'from the model' });
  const calls = model.requests.filter((r) => r.protocol !== 'oauth');
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

describe('ModelConfig forms through the API', () => {
  it('generic OpenAI: Responses by default, with the per-call key and custom headers', async () => {
    const id = await ctx.sessionOn('forms.html');
    const req = await extractWith(id, { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-per-call', baseURL: `${model.url}/v1`, headers: { 'x-team': 'qa' } });
    expect(req.path).toBe('/v1/responses');
    expect(req.headers.authorization).toBe('Bearer sk-per-call');
    expect(req.headers['x-team']).toBe('qa');
    expect((req.body as { model: string }).model).toBe('gpt-4.1-mini');
    expect(req.raw).toContain('Sign up');
  });

  it('generic OpenAI with openaiEndpointFormat chat goes to /chat/completions', async () => {
    const id = await ctx.sessionOn('forms.html');
    const req = await extractWith(id, { modelName: 'openai/gpt-4o', apiKey: 'sk-chat', baseURL: `${model.url}/v1`, openaiEndpointFormat: 'chat' });
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-chat');
  });

  it('Anthropic: x-api-key on /v1/messages', async () => {
    const id = await ctx.sessionOn('forms.html');
    const req = await extractWith(id, { modelName: 'anthropic/claude-3-5-haiku-latest', apiKey: 'ant-key-1', baseURL: `${model.url}/v1` });
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe('ant-key-1');
    expect(req.headers['anthropic-version']).toBeTruthy();
  });

  it('Google: x-goog-api-key on generateContent', async () => {
    const id = await ctx.sessionOn('forms.html');
    const req = await extractWith(id, { modelName: 'google/gemini-2.5-flash', apiKey: 'goog-key-1', baseURL: `${model.url}/v1beta` });
    expect(req.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(req.headers['x-goog-api-key']).toBe('goog-key-1');
  });

  it('an OpenAI-compatible endpoint (Ollama-style) needs no key and gets no Authorization header', async () => {
    const id = await ctx.sessionOn('forms.html');
    const req = await extractWith(id, { modelName: 'ollama/llama3.2', baseURL: `${model.url}/v1` });
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBeUndefined();
    expect((req.body as { model: string }).model).toBe('llama3.2');
  });

  it('Vertex: the service account is exchanged at its token_uri and the token sent as a bearer', async () => {
    const id = await ctx.sessionOn('forms.html');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const req = await extractWith(id, {
      modelName: 'gemini-2.5-pro',
      provider: 'vertex',
      auth: {
        type: 'googleServiceAccount',
        credentials: { type: 'service_account', private_key: pem, client_email: 'bot@acme-proj.iam.gserviceaccount.com', token_uri: `${model.url}/token` },
      },
      providerOptions: { vertex: { project: 'acme-proj', location: 'us-central1', baseURL: `${model.url}/v1beta1/projects/acme-proj/locations/us-central1/publishers/google` } },
    });
    expect(model.requests[0]!.protocol).toBe('oauth');
    expect(req.path).toBe('/v1beta1/projects/acme-proj/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent');
    expect(req.headers.authorization).toBe(`Bearer ${LOOPBACK_ACCESS_TOKEN}`);
    const logs = ctx.server.logs.join('\n');
    expect(logs).not.toContain('PRIVATE KEY');
  });

  it('Azure with an Entra token: bearer on the deployment URL', async () => {
    const id = await ctx.sessionOn('forms.html');
    const req = await extractWith(id, {
      modelName: 'gpt-4o-prod',
      provider: 'azure',
      auth: { type: 'azureEntraId', token: 'entra-token-abc' },
      providerOptions: { azure: { baseURL: `${model.url}/openai`, useDeploymentBasedUrls: true, apiVersion: '2024-10-21' } },
    });
    expect(req.path).toBe('/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
    expect(req.headers.authorization).toBe('Bearer entra-token-abc');
    expect(req.headers['api-key']).toBeUndefined();
  });

  it('Azure with an api key: api-key header on the v1 Responses URL', async () => {
    const id = await ctx.sessionOn('forms.html');
    const req = await extractWith(id, {
      modelName: 'azure/gpt-4.1',
      provider: 'azure',
      apiKey: 'azure-call-key',
      providerOptions: { azure: { baseURL: `${model.url}/openai/v1` } },
    });
    expect(req.path).toBe('/openai/v1/responses');
    expect(req.headers['api-key']).toBe('azure-call-key');
  });
});

describe('which model and which key', () => {
  it('uses the x-model-api-key header when the call has no key of its own', async () => {
    const id = await ctx.sessionOn('forms.html');
    const req = await extractWith(id, { modelName: 'anthropic/claude-3-5-haiku-latest', baseURL: `${model.url}/v1` }, { 'x-model-api-key': 'ant-from-header' });
    expect(req.headers['x-api-key']).toBe('ant-from-header');
  });

  it("uses the session's modelName when the call names no model, and the server's environment for key and endpoint", async () => {
    const id = await ctx.sessionOn('forms.html', { modelName: 'openai/gpt-4.1-nano' });
    const req = await extractWith(id);
    expect(req.path).toBe('/v1/responses');
    expect((req.body as { model: string }).model).toBe('gpt-4.1-nano');
    expect(req.headers.authorization).toBe('Bearer sk-server-env-key');
  });

  it('resolves a legacy unprefixed session modelName (gpt-4.1-nano means OpenAI)', async () => {
    const id = await ctx.sessionOn('forms.html', { modelName: 'gpt-4.1-nano' });
    const req = await extractWith(id);
    expect((req.body as { model: string }).model).toBe('gpt-4.1-nano');
  });

  it('reports token usage of model calls in replay', async () => {
    const id = await ctx.sessionOn('forms.html');
    await extractWith(id, { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-usage', baseURL: `${model.url}/v1` });
    const replay = await ctx.api.call('replaySession', { id });
    const extract = replay.body.data.pages.flatMap((p: any) => p.actions).find((a: any) => a.method === 'extract');
    expect(extract.tokenUsage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), timeMs: expect.any(Number) });
    expect(extract.tokenUsage.inputTokens).toBeGreaterThan(0);
    expect(JSON.stringify(replay.body)).not.toContain('sk-usage');
  });
});
