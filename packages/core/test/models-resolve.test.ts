import { describe, expect, it } from 'vitest';
import { DeckhandError } from '../src/errors.js';
import { resolveCredentials } from '../src/models/keys.js';
import { modelIdentity, resolveModel } from '../src/models/resolve-model.js';

describe('resolveModel', () => {
  it.each([
    ['openai/gpt-4.1-mini', 'openai', 'gpt-4.1-mini'],
    ['anthropic/claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['google/gemini-2.5-flash', 'google', 'gemini-2.5-flash'],
    ['vertex/gemini-2.5-pro', 'vertex', 'gemini-2.5-pro'],
    ['bedrock/us.anthropic.claude-3-7-sonnet', 'bedrock', 'us.anthropic.claude-3-7-sonnet'],
    ['builtin/offline', 'builtin', 'offline'],
    ['auto', 'builtin', 'offline'],
    ['AUTO', 'builtin', 'offline'],
    ['gpt-4.1-nano', 'openai', 'gpt-4.1-nano'],
    ['o3-mini', 'openai', 'o3-mini'],
    ['o4-mini', 'openai', 'o4-mini'],
    ['claude-3-5-haiku-latest', 'anthropic', 'claude-3-5-haiku-latest'],
    ['gemini-2.0-flash', 'google', 'gemini-2.0-flash'],
  ])('%s → %s', (name, kind, modelId) => {
    const target = resolveModel(name);
    expect(target.kind).toBe(kind);
    expect(target.modelId).toBe(modelId);
  });

  it('uses the session model, then the built-in model, when the call names none', () => {
    expect(resolveModel(undefined, 'anthropic/claude-sonnet-4-5').kind).toBe('anthropic');
    expect(resolveModel(undefined).kind).toBe('builtin');
    expect(resolveModel(undefined, '').kind).toBe('builtin');
  });

  it('maps the legacy provider field (microsoft = azure)', () => {
    expect(resolveModel({ modelName: 'my-deployment', provider: 'microsoft' }).kind).toBe('azure');
    expect(resolveModel({ modelName: 'some-model', provider: 'anthropic' }).kind).toBe('anthropic');
    expect(resolveModel({ modelName: 'some-model', provider: 'openai' }).kind).toBe('openai');
  });

  it('treats unknown prefixes with a baseURL as OpenAI-compatible, and knows local Ollama', () => {
    const gateway = resolveModel({ modelName: 'openrouter/meta-llama/llama-3.3-70b', baseURL: 'http://gw.local/v1' });
    expect(gateway).toMatchObject({ kind: 'openai-compatible', providerName: 'openrouter', modelId: 'meta-llama/llama-3.3-70b' });
    expect(resolveModel('ollama/llama3.2')).toMatchObject({ kind: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1' });
  });

  it('rejects names it cannot place, saying what to do', () => {
    expect(() => resolveModel('acme/model-x')).toThrow(/Unknown model provider "acme".*baseURL/);
    expect(() => resolveModel('mystery-model')).toThrow(/Cannot tell the provider of model "mystery-model"/);
    expect(() => resolveModel('builtin')).toThrow(/The built-in model is "builtin\/offline"/);
    expect(() => resolveModel('builtin/fast')).toThrow(/The built-in model is "builtin\/offline"; there is no "builtin\/fast"/);
  });

  it('resolves the Vertex and Azure forms and gives an identity without secrets', () => {
    const azure = resolveModel({
      modelName: 'gpt-4o-deploy',
      provider: 'azure',
      apiKey: 'azure-secret-key',
      providerOptions: { azure: { resourceName: 'acme' } },
    });
    expect(azure).toMatchObject({ kind: 'azure', baseURL: 'https://acme.openai.azure.com/openai' });
    expect(modelIdentity(azure)).toBe('azure/gpt-4o-deploy@https://acme.openai.azure.com/openai');
    const vertex = resolveModel({
      modelName: 'vertex/gemini-2.5-pro',
      provider: 'vertex',
      auth: { type: 'googleServiceAccount', credentials: { private_key: 'k', client_email: 'e@x' } },
      providerOptions: { vertex: { project: 'p', location: 'us-central1' } },
    });
    expect(vertex).toMatchObject({ kind: 'vertex', modelId: 'gemini-2.5-pro' });
    expect(modelIdentity(vertex)).toBe('vertex/gemini-2.5-pro');
  });
});

describe('resolveCredentials', () => {
  const anthropic = (apiKey?: string) => resolveModel({ modelName: 'anthropic/claude-sonnet-4-5', ...(apiKey && { apiKey }) });

  it('prefers the call key, then the session key, then the server env', () => {
    const env = { ANTHROPIC_API_KEY: 'env-key' };
    expect(resolveCredentials(anthropic('call-key'), { sessionApiKey: 'session-key', env })).toEqual({ type: 'apiKey', apiKey: 'call-key' });
    expect(resolveCredentials(anthropic(), { sessionApiKey: 'session-key', env })).toEqual({ type: 'apiKey', apiKey: 'session-key' });
    expect(resolveCredentials(anthropic(), { sessionApiKey: '', env })).toEqual({ type: 'apiKey', apiKey: 'env-key' });
  });

  it('reads either Google env name', () => {
    expect(resolveCredentials(resolveModel('google/gemini-2.5-flash'), { env: { GEMINI_API_KEY: 'g' } })).toEqual({ type: 'apiKey', apiKey: 'g' });
  });

  it('names the provider and every way to supply a key when none exists', () => {
    const error = (() => {
      try {
        resolveCredentials(anthropic(), { env: {} });
      } catch (e) {
        return e as DeckhandError;
      }
    })();
    expect(error).toBeInstanceOf(DeckhandError);
    expect(error?.code).toBe('missing_model_key');
    expect(error?.message).toBe(
      'No API key for provider "anthropic": pass options.model.apiKey, the x-model-api-key header, or set ANTHROPIC_API_KEY on the server',
    );
  });

  it('lets OpenAI-compatible endpoints run without a key, and uses <PREFIX>_API_KEY when set', () => {
    expect(resolveCredentials(resolveModel('ollama/llama3.2'), { env: {} })).toEqual({ type: 'none' });
    const gateway = resolveModel({ modelName: 'openrouter/x', baseURL: 'http://gw.local/v1' });
    // The server's key goes to no endpoint the request names itself: only the request's own key does.
    expect(resolveCredentials(gateway, { env: { OPENROUTER_API_KEY: 'or' } })).toEqual({ type: 'none' });
    expect(resolveCredentials(gateway, { sessionApiKey: 'own', env: { OPENROUTER_API_KEY: 'or' } })).toEqual({ type: 'apiKey', apiKey: 'own' });
    expect(resolveCredentials(resolveModel('ollama/llama3.2'), { env: { OLLAMA_API_KEY: 'ol' } })).toEqual({ type: 'apiKey', apiKey: 'ol' });
    expect(() => resolveCredentials(resolveModel({ modelName: 'anthropic/claude-sonnet-4-5', baseURL: 'http://x/v1' }), { env: { ANTHROPIC_API_KEY: 'a' } })).toThrow(/own key/);
    expect(resolveCredentials(resolveModel({ modelName: 'openai/gpt-4o', baseURL: 'http://proxy/v1' }), { env: {} })).toEqual({ type: 'none' });
  });

  it('uses auth objects before any key, and AWS key pairs from the env for Bedrock', () => {
    const azure = resolveModel({
      modelName: 'd',
      provider: 'azure',
      auth: { type: 'azureEntraId', token: 'entra' },
      providerOptions: { azure: {} },
    });
    expect(resolveCredentials(azure, { sessionApiKey: 's', env: { AZURE_API_KEY: 'a' } })).toEqual({ type: 'azureEntraId', token: 'entra' });
    const bedrock = resolveModel('bedrock/amazon.nova-lite-v1:0');
    expect(resolveCredentials(bedrock, { env: { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 'shh' } })).toEqual({
      type: 'aws',
      accessKeyId: 'AKIA',
      secretAccessKey: 'shh',
      sessionToken: undefined,
    });
    expect(() => resolveCredentials(bedrock, { env: {} })).toThrow(/AWS_BEARER_TOKEN_BEDROCK or AWS_ACCESS_KEY_ID/);
  });
});
