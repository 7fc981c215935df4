// Bad input always gets a clear 400 in the one error shape, before any session lookup.
import { describe, expect, it } from 'vitest';
import { expectError, useContract } from '../support/contract';

const ctx = useContract({ DECKHAND_BODY_LIMIT_BYTES: '20000' });

describe('validation', () => {
  it('validates the body before looking the session up', async () => {
    const error = expectError(await ctx.api.call('act', { id: 'no-such-session', body: { options: {} } }), 400, 'validation_error');
    expect(error.issues!.map((i) => i.path)).toContain('body.input');
  });

  it('checks ModelConfig forms strictly', async () => {
    const id = 'irrelevant';
    const bad = [
      { modelName: 'openai/gpt-4.1', color: 'blue' },
      { modelName: 'x', provider: 'vertex' },
      { modelName: 'x', provider: 'azure', providerOptions: { azure: {} }, auth: { type: 'azureEntraId', token: '' } },
      { modelName: 'x', provider: 'azure', providerOptions: { azure: {} }, auth: { type: 'azureEntraId', token: 't' }, apiKey: 'k' },
      { modelName: 'x', openaiEndpointFormat: 'soap' },
    ];
    for (const model of bad) {
      expectError(await ctx.api.call('act', { id, body: { input: 'click go', options: { model } } }), 400, 'validation_error');
    }
    const variables = { v: { value: 'x', description: 'd', extra: 1 } };
    expectError(await ctx.api.call('act', { id, body: { input: 'click go', options: { variables } } }), 400, 'validation_error');
  });

  it('checks agentExecute requirements', async () => {
    expectError(await ctx.api.call('agentExecute', { id: 'x', body: { agentConfig: {} } }), 400, 'validation_error');
    expectError(await ctx.api.call('agentExecute', { id: 'x', body: { agentConfig: {}, executeOptions: {} } }), 400, 'validation_error');
    expectError(await ctx.api.call('agentExecute', { id: 'x', body: { agentConfig: { mode: 'turbo' }, executeOptions: { instruction: 'i' } } }), 400, 'validation_error');
  });

  it('checks start: launchOptions is strict, modelName is required', async () => {
    expectError(await ctx.api.call('startSession', { body: { browser: { type: 'local', launchOptions: {} } } }), 400, 'validation_error');
    const strict = { modelName: 'm', browser: { type: 'local', launchOptions: { headless: true, turbo: true } } };
    expectError(await ctx.api.call('startSession', { body: strict }), 400, 'validation_error');
  });

  it('answers malformed JSON, a wrong content type and an oversized body clearly', async () => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${ctx.server.url}/v1/sessions/start`, { method: 'POST', headers: { 'content-type': type }, body });
    const malformed = await post('{"modelName":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ success: false, code: 'validation_error' });
    const wrongType = await post('modelName=x', 'application/x-www-form-urlencoded');
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({ success: false, code: 'validation_error' });
    const huge = await post(JSON.stringify({ modelName: 'x', systemPrompt: 'a'.repeat(30_000) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ success: false, code: 'payload_too_large' });
  });
});
