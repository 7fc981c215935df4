// Red team R1: a request's own model baseURL reached the server's loopback, private and metadata
// addresses, and the answer (HTTP 404 vs ECONNREFUSED) told what listens there: a port scan. A
// client-supplied endpoint now passes the navigation policy first (403 destination_blocked naming the
// host and rule, no request sent), and a model error never echoes a baseURL's user:pass@ or query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../support/closed-port';
import { expectError, expectOk, useContract, type ContractContext } from '../support/contract';
import { startModelServer, type ModelServer } from '../support/model-server';

const AUTH = { 'x-bb-api-key': 'endpoint-key' };
const json = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };

let model: ModelServer;
let closed: string;
beforeAll(async () => {
  model = await startModelServer();
  closed = await closedPortUrl();
});
afterAll(async () => {
  await model.close();
});

const openai = (baseURL: string) => ({ modelName: 'openai/gpt-4.1-mini', baseURL, apiKey: 'sk-client-own-key' });

async function extract(ctx: ContractContext, id: string, modelConfig: unknown) {
  return ctx.api.call('extract', { id, body: { instruction: 'the heading', options: { model: modelConfig } }, headers: json });
}

describe('a server with API keys', () => {
  const ctx = useContract({ DECKHAND_API_KEYS: 'endpoint-key:endpoints' }, AUTH);

  it('refuses a model baseURL on loopback, private or link-local addresses with 403 destination_blocked, before any request', async () => {
    const id = await ctx.startSession();
    const cases: Array<[string, RegExp]> = [
      [`${model.url}/v1`, /127\.0\.0\.1.*loopback/],
      [`${closed}v1`, /127\.0\.0\.1.*loopback/],
      ['http://10.0.0.1:8080/v1', /10\.0\.0\.1.*private/],
      ['http://169.254.169.254/latest', /169\.254\.169\.254.*link-local or cloud metadata/],
      ['http://metadata.google.internal/v1', /metadata\.google\.internal.*metadata/],
    ];
    for (const [baseURL, reason] of cases) {
      const error = expectError(await extract(ctx, id, openai(baseURL)), 403, 'destination_blocked');
      expect(error.message).toMatch(reason);
    }
    const agent = await ctx.api.call('agentExecute', {
      id,
      body: { agentConfig: { model: openai(`${model.url}/v1`) }, executeOptions: { instruction: 'finish' } },
      headers: json,
    });
    expect(JSON.stringify(agent.body)).toMatch(/destination_blocked|blocked by the navigation policy/);
    expect(model.requests).toHaveLength(0);
  });
});

describe('a server with API keys that allows loopback', () => {
  const ctx = useContract({ DECKHAND_API_KEYS: 'endpoint-key:endpoints', DECKHAND_NAV_ALLOW: '127.0.0.1' }, AUTH);

  it('reaches a listed loopback endpoint, never a metadata address, and keeps a baseURL\'s credentials out of errors', async () => {
    const id = await ctx.startSession();
    model.script({ json: { extraction: 'x' } });
    expectOk(await extract(ctx, id, openai(`${model.url}/v1`)));
    expect(model.requests.length).toBeGreaterThan(0);
    expectError(await extract(ctx, id, openai('http://169.254.169.254/v1')), 403, 'destination_blocked');
    const withSecrets = closed.replace('http://', 'http://scanner:pw-7731@') + 'v1?token=q-7731';
    const reply = await extract(ctx, id, openai(withSecrets));
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(reply.body)).not.toMatch(/pw-7731|q-7731/);
  });
});
