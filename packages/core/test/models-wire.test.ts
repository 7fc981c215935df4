import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { closedPortUrl } from '../../../test/support/closed-port.js';
import { LOOPBACK_ACCESS_TOKEN, startModelServer, type ModelServer } from '../../../test/support/model-server.js';
import { DeckhandError } from '../src/errors.js';
import type { JSONSchema } from '../src/models/json-schema.js';
import { createModelClient } from '../src/models/model-client.js';
import type { ModelConfig, ModelEnv } from '../src/models/model-config.js';
import { resolveModel } from '../src/models/resolve-model.js';
import { UsageMeter } from '../src/models/usage.js';

const SCHEMA: JSONSchema = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
};

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});
afterEach(() => {
  vi.unstubAllEnvs();
});

function ask(model: ModelConfig | string, opts: { sessionApiKey?: string; env?: ModelEnv; signal?: AbortSignal; usage?: UsageMeter } = {}) {
  const client = createModelClient(resolveModel(model), { sessionApiKey: opts.sessionApiKey, env: opts.env ?? {} });
  return client.generateObject({
    system: 'You answer questions.',
    prompt: 'What is the answer?',
    schema: SCHEMA,
    signal: opts.signal ?? new AbortController().signal,
    usage: opts.usage ?? new UsageMeter(),
  });
}

async function failure(promise: Promise<unknown>): Promise<DeckhandError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DeckhandError);
    return error as DeckhandError;
  }
  throw new Error('expected the call to fail');
}

describe('each ModelConfig form reaches its provider', () => {
  it('OpenAI, Responses format by default: bearer key, custom headers, json_schema text format', async () => {
    server.script({ json: { answer: '42' } });
    const result = await ask({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-call-key-123', baseURL: `${server.url}/v1`, headers: { 'x-team': 'qa' } });
    expect(result).toEqual({ answer: '42' });
    const [req] = server.requests;
    expect(req?.path).toBe('/v1/responses');
    expect(req?.headers.authorization).toBe('Bearer sk-call-key-123');
    expect(req?.headers['x-team']).toBe('qa');
    expect(req?.body).toMatchObject({ model: 'gpt-4.1-mini', text: { format: { type: 'json_schema' } } });
  });

  it('OpenAI chat format goes to /chat/completions with a response_format', async () => {
    server.script({ json: { answer: 'chat' } });
    await ask({ modelName: 'openai/gpt-4o', openaiEndpointFormat: 'chat' }, { env: { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: `${server.url}/v1` } });
    const [req] = server.requests;
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe('Bearer sk-env');
    expect(req?.body).toMatchObject({ response_format: { type: 'json_schema' } });
  });

  it('an OpenAI-compatible endpoint without a key gets no Authorization header and JSON asked in the prompt', async () => {
    server.script({ text: 'Sure! Here it is:\n```json\n{"answer": "local"}\n```' });
    const result = await ask({ modelName: 'ollama/llama3.2', baseURL: `${server.url}/v1`, openaiEndpointFormat: 'chat' });
    expect(result).toEqual({ answer: 'local' });
    const [req] = server.requests;
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.body).not.toHaveProperty('response_format');
    expect(req?.raw).toContain('Reply with only a JSON object');
  });

  it('Anthropic: x-api-key and anthropic-version on /v1/messages', async () => {
    server.script({ json: { answer: 'claude' } });
    const result = await ask({ modelName: 'anthropic/claude-3-5-haiku-latest', baseURL: `${server.url}/v1` }, { sessionApiKey: 'ant-session-key' });
    expect(result).toEqual({ answer: 'claude' });
    const [req] = server.requests;
    expect(req?.path).toBe('/v1/messages');
    expect(req?.headers['x-api-key']).toBe('ant-session-key');
    expect(req?.headers['anthropic-version']).toBeDefined();
  });

  it('Google: x-goog-api-key on generateContent', async () => {
    server.script({ json: { answer: 'gemini' } });
    await ask('google/gemini-2.5-flash', { env: { GOOGLE_GENERATIVE_AI_API_KEY: 'AIza-env-key', GOOGLE_GENERATIVE_AI_BASE_URL: `${server.url}/v1beta` } });
    const [req] = server.requests;
    expect(req?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(req?.headers['x-goog-api-key']).toBe('AIza-env-key');
  });

  it('Vertex: the service account is exchanged at its token_uri and the token sent as a bearer', async () => {
    // The SDK would switch to express mode on a key in process.env; the caller's service account wins.
    vi.stubEnv('GOOGLE_VERTEX_API_KEY', 'process-env-vertex-key');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const vertexBase = `${server.url}/v1beta1/projects/acme-proj/locations/us-central1/publishers/google`;
    server.script({ json: { answer: 'vertex' } });
    const result = await ask({
      modelName: 'gemini-2.5-pro',
      provider: 'vertex',
      auth: {
        type: 'googleServiceAccount',
        credentials: { type: 'service_account', private_key: pem, client_email: 'bot@acme-proj.iam.gserviceaccount.com', token_uri: `${server.url}/token` },
      },
      providerOptions: { vertex: { project: 'acme-proj', location: 'us-central1', baseURL: vertexBase, headers: { 'x-vertex-extra': 'yes' } } },
    });
    expect(result).toEqual({ answer: 'vertex' });
    const [token, call] = server.requests;
    expect(call?.headers['x-goog-api-key']).toBeUndefined();
    expect(token?.protocol).toBe('oauth');
    expect(token?.body).toMatchObject({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' });
    expect(call?.path).toBe('/v1beta1/projects/acme-proj/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent');
    expect(call?.headers.authorization).toBe(`Bearer ${LOOPBACK_ACCESS_TOKEN}`);
    expect(call?.headers['x-vertex-extra']).toBe('yes');
  });

  it('Azure with an Entra token: bearer auth on a deployment URL with the api-version', async () => {
    server.script({ json: { answer: 'azure' } });
    await ask({
      modelName: 'gpt-4o-prod',
      provider: 'azure',
      auth: { type: 'azureEntraId', token: 'entra-token-abc' },
      providerOptions: { azure: { baseURL: `${server.url}/openai`, useDeploymentBasedUrls: true, apiVersion: '2024-10-21' } },
    });
    const [req] = server.requests;
    expect(req?.path).toBe('/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
    expect(req?.headers.authorization).toBe('Bearer entra-token-abc');
    expect(req?.headers['api-key']).toBeUndefined();
  });

  it('Azure with an api key: api-key header on the v1 Responses URL', async () => {
    server.script({ json: { answer: 'azure-key' } });
    await ask({
      modelName: 'azure/gpt-4.1',
      provider: 'azure',
      apiKey: 'azure-call-key',
      providerOptions: { azure: { baseURL: `${server.url}/openai/v1`, headers: { 'x-azure-extra': '1' } } },
    });
    const [req] = server.requests;
    expect(req?.path).toBe('/openai/v1/responses');
    expect(req?.headers['api-key']).toBe('azure-call-key');
    expect(req?.headers['x-azure-extra']).toBe('1');
  });

  it('Bedrock: Converse with a bearer API key', async () => {
    server.script({ json: { answer: 'bedrock' } });
    const result = await ask('bedrock/amazon.nova-lite-v1:0', { env: { AWS_BEARER_TOKEN_BEDROCK: 'bedrock-key', BEDROCK_BASE_URL: server.url } });
    expect(result).toEqual({ answer: 'bedrock' });
    const [req] = server.requests;
    expect(req?.path).toMatch(/^\/model\/amazon\.nova-lite-v1(%3A|:)0\/converse$/);
    expect(req?.headers.authorization).toBe('Bearer bedrock-key');
  });

  it('Bedrock: an AWS key pair from the env signs the request with SigV4, the secret never sent', async () => {
    // The SDK would prefer a bearer token from process.env; Deckhand's own env wins.
    vi.stubEnv('AWS_BEARER_TOKEN_BEDROCK', 'process-env-bedrock-token');
    server.script({ json: { answer: 'signed' } });
    const env = { AWS_ACCESS_KEY_ID: 'AKIDLOOPBACK', AWS_SECRET_ACCESS_KEY: 'aws-secret-xyz', AWS_SESSION_TOKEN: 'aws-session-tok', AWS_REGION: 'eu-west-1', BEDROCK_BASE_URL: server.url };
    expect(await ask('bedrock/amazon.nova-lite-v1:0', { env })).toEqual({ answer: 'signed' });
    const [req] = server.requests;
    expect(req?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOOPBACK\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/);
    expect(req?.headers['x-amz-security-token']).toBe('aws-session-tok');
    expect(JSON.stringify(req)).not.toContain('aws-secret-xyz');
  });

  it('Vertex: GOOGLE_APPLICATION_CREDENTIALS names a service-account file that is exchanged for a token', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dir = mkdtempSync(join(tmpdir(), 'deckhand-adc-'));
    const keyFile = join(dir, 'service-account.json');
    writeFileSync(
      keyFile,
      JSON.stringify({
        type: 'service_account',
        project_id: 'adc-proj',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: 'adc@adc-proj.iam.gserviceaccount.com',
        token_uri: `${server.url}/token`,
      }),
    );
    try {
      server.script({ json: { answer: 'adc' } });
      const baseURL = `${server.url}/v1/projects/adc-proj/locations/europe-west4/publishers/google`;
      const result = await ask(
        'vertex/gemini-2.5-flash',
        { env: { GOOGLE_APPLICATION_CREDENTIALS: keyFile, GOOGLE_VERTEX_PROJECT: 'adc-proj', GOOGLE_VERTEX_LOCATION: 'europe-west4', GOOGLE_VERTEX_BASE_URL: baseURL } },
      );
      expect(result).toEqual({ answer: 'adc' });
      const [token, call] = server.requests;
      expect(token?.protocol).toBe('oauth');
      expect(call?.path).toBe('/v1/projects/adc-proj/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent');
      expect(call?.headers.authorization).toBe(`Bearer ${LOOPBACK_ACCESS_TOKEN}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('failures', () => {
  const openai = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-very-secret-key-999', baseURL: `${server.url}/v1` });

  it('a 401 becomes model_error naming provider and status, without the key the provider echoed', async () => {
    server.script({ status: 401, message: 'Incorrect API key provided: sk-very-secret-key-999' });
    const error = await failure(ask(openai()));
    expect(error.code).toBe('model_error');
    expect(error.message).toContain('openai model "gpt-4.1-mini"');
    expect(error.message).toContain('HTTP 401');
    expect(error.message).not.toContain('sk-very-secret-key-999');
  });

  it('a 500 is retried once, then reported', async () => {
    server.script([{ status: 500 }, { status: 500 }]);
    const error = await failure(ask(openai()));
    expect(error.code).toBe('model_error');
    expect(error.message).toContain('HTTP 500');
    expect(server.requests).toHaveLength(2);
  }, 20_000);

  it('an unreachable provider is a model_error', async () => {
    const error = await failure(ask({ modelName: 'openai/gpt-4o', apiKey: 'k', baseURL: `${await closedPortUrl()}v1` }));
    expect(error.code).toBe('model_error');
  }, 20_000);

  it('malformed output gets one retry that shows the validation error, then model_error', async () => {
    server.script([{ text: 'I think the answer is 42.' }, { json: { answer: 42 } }]);
    const error = await failure(ask(openai()));
    expect(error.code).toBe('model_error');
    expect(error.message).toMatch(/returned output that does not match/);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.raw).toContain('Your reply was rejected: the reply contains no JSON object');
  });

  it('a retry that fixes the output succeeds', async () => {
    server.script([{ json: { wrong: true } }, { json: { answer: 'fixed' } }]);
    expect(await ask(openai())).toEqual({ answer: 'fixed' });
    expect(server.requests[1]?.raw).toContain('answer');
    expect(server.requests[1]?.raw).toContain('rejected');
  });

  it('a hanging provider is abandoned as soon as the signal aborts', async () => {
    server.hang();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const error = await failure(ask(openai(), { signal: controller.signal }));
    expect(error.code).toBe('timeout');
    await expect.poll(() => server.requests[0]?.abandoned).toBe(true);
  });

  it("a cancelled call surfaces the caller's own reason", async () => {
    server.hang();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DeckhandError('timeout', 'act timed out after 100ms')), 100);
    const error = await failure(ask(openai(), { signal: controller.signal }));
    expect(error.message).toBe('act timed out after 100ms');
  });
});

describe('usage', () => {
  it('accumulates tokens, reasoning, cache reads, time and calls across calls', async () => {
    const usage = new UsageMeter();
    const recorded = vi.spyOn(usage, 'record');
    const config = { modelName: 'openai/o4-mini', apiKey: 'k', baseURL: `${server.url}/v1` };
    const started = performance.now();
    server.script({ json: { answer: 'a' }, usage: { input: 1200, output: 80, cached: 1024, reasoning: 64 } });
    await ask(config, { usage });
    server.script({ json: { answer: 'b' }, usage: { input: 300, output: 20 } });
    await ask(config, { usage });
    const elapsed = performance.now() - started;
    expect(usage.total).toMatchObject({ inputTokens: 1500, outputTokens: 100, cachedInputTokens: 1024, reasoningTokens: 64, calls: 2 });
    // Each call's wall time is added rounded to whole ms, so a fast loopback call may legitimately
    // count 0: assert the total is the sum of the measured times, which lie within the test's own.
    const times = recorded.mock.calls.map(([, ms]) => ms);
    expect(times).toHaveLength(2);
    for (const ms of times) expect(ms).toBeGreaterThan(0);
    expect(usage.total.inferenceTimeMs).toBe(times.reduce((sum, ms) => sum + Math.round(ms), 0));
    expect(usage.total.inferenceTimeMs).toBeLessThanOrEqual(Math.round(elapsed) + 1);
  });
});
