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
    // A step is whole: a fraction of one is refused, not run as "Stopped after 1.5 step(s)".
    const fraction = expectError(await ctx.api.call('agentExecute', { id: 'x', body: { agentConfig: {}, executeOptions: { instruction: 'i', maxSteps: 1.5 } } }), 400, 'validation_error');
    expect(JSON.stringify(fraction)).toMatch(/maxSteps/);
  });

  it('says what a body lacks and which of its fields the operation does not take, never a blank alternative', async () => {
    const act = expectError(await ctx.api.call('act', { id: 'no-such-session', body: { instruction: 'click the Go button' } }), 400, 'validation_error');
    expect(act.message).toBe('Invalid request: body.input: required; body.instruction: not a field of act');
    expect(act.issues).toEqual([
      { path: 'body.input', message: 'required' },
      { path: 'body.instruction', message: 'not a field of act' },
    ]);
    const navigate = expectError(await ctx.api.call('navigate', { id: 'x', body: { href: 'http://127.0.0.1/' } }), 400, 'validation_error');
    expect(navigate.message).toBe('Invalid request: body.url: required; body.href: not a field of navigate');
    const agent = expectError(await ctx.api.call('agentExecute', { id: 'x', body: { agentConfig: {} } }), 400, 'validation_error');
    expect(agent.message).toBe('Invalid request: body.executeOptions: required');
    for (const error of [act, navigate, agent]) expect(error.message).not.toMatch(/needs\s+or|\bor\s*$|:\s*;/);
  });

  it('checks start: launchOptions is strict', async () => {
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
