// Project-scoped API keys: missing or unknown keys are refused, and a key sees only its project.
import { describe, expect, it } from 'vitest';
import { loadServerConfig, parseApiKeys } from '@deckhand/server';
import { driverFor } from '../support/drivers';
import { START_BODY, expectError, expectOk, useContract } from '../support/contract';

const ctx = useContract({ DECKHAND_API_KEYS: 'alpha-key:alpha,alpha-2:alpha,beta-key:beta' }, { 'x-bb-api-key': 'alpha-key' });

describe('auth', () => {
  it('refuses a missing or unknown key with 401', async () => {
    const anonymous = driverFor(ctx.server.url);
    expectError(await anonymous.call('startSession', { body: START_BODY }), 401, 'unauthorized');
    const wrong = driverFor(ctx.server.url, { 'x-bb-api-key': 'nope' });
    expectError(await wrong.call('startSession', { body: START_BODY }), 401, 'unauthorized');
  });

  it('serves the demo page without a key: a session browser, which has none, loads it', async () => {
    const response = await fetch(`${ctx.server.url}/demo`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('<h1>Deckhand demo</h1>');
  });

  it('lets keys of one project share sessions, and hides them from other projects (404)', async () => {
    const id = await ctx.startSession();
    const sameProject = driverFor(ctx.server.url, { 'x-bb-api-key': 'alpha-2' });
    expectOk(await sameProject.call('replaySession', { id }));
    const other = driverFor(ctx.server.url, { 'x-bb-api-key': 'beta-key' });
    expectError(await other.call('replaySession', { id }), 404, 'session_not_found');
    expectError(await other.call('act', { id, body: { input: { selector: 'body', method: 'click' } } }), 404, 'session_not_found');
    expectError(await other.call('endSession', { id, body: {} }), 404, 'session_not_found');
    expectOk(await ctx.api.call('endSession', { id, body: {} }));
  });

  it('accepts the deprecated x-bb-project-id header without requiring it', async () => {
    const withProject = driverFor(ctx.server.url, { 'x-bb-api-key': 'alpha-key', 'x-bb-project-id': 'whatever' });
    const reply = await withProject.call('startSession', { body: START_BODY });
    expectOk(reply);
    expectOk(await ctx.api.call('endSession', { id: reply.body.data.sessionId, body: {} }));
  });

  it('health needs no key', async () => {
    expect((await driverFor(ctx.server.url).call('getHealth')).status).toBe(200);
  });

  it('refuses to start bound beyond loopback without keys, and parses key files', () => {
    expect(() => loadServerConfig({ HOST: '0.0.0.0' })).toThrow(/without API keys/);
    expect(loadServerConfig({ HOST: '0.0.0.0', DECKHAND_API_KEYS: 'k:p' }).apiKeys.get('k')).toBe('p');
    expect(loadServerConfig({ HOST: '127.0.0.1' }).apiKeys.size).toBe(0);
    expect(parseApiKeys('# comment\na:one\nb:two, c:three').map(({ key, projectId }) => [key, projectId])).toEqual([['a', 'one'], ['b', 'two'], ['c', 'three']]);
    expect(() => parseApiKeys('just-a-key')).toThrow(/key:projectId/);
    expect(loadServerConfig({ PORT: '0' }).port).toBe(0);
    expect(() => loadServerConfig({ PORT: 'eighty' })).toThrow(/PORT must be an integer of at least 0/);
    expect(() => loadServerConfig({ DECKHAND_SSE_HEARTBEAT_MS: '0' })).toThrow(/DECKHAND_SSE_HEARTBEAT_MS/);
  });
});
