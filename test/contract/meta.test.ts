// Health, readiness, the served contract and docs page, and unknown routes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useContract } from '../support/contract';

const ctx = useContract();

describe('meta', () => {
  it('answers liveness and readiness', async () => {
    const health = await ctx.api.call('getHealth');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true, sessions: 0 });
    const ready = await ctx.api.call('getReadiness');
    expect(ready.status).toBe(200);
    expect(ready.body.chromium).toMatch(/chromium/);
  });

  it('serves the contract it was generated from, and the API reference page that renders it', async () => {
    const yaml = await fetch(`${ctx.server.url}/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toContain('yaml');
    expect(await yaml.text()).toBe(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    // What it shows, in a real browser: packages/server/test/api-reference.test.ts.
    const docs = await fetch(`${ctx.server.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<script src="docs/api-reference.js"></script>');
  });

  it('answers an unknown route with the error shape and a request id', async () => {
    const response = await fetch(`${ctx.server.url}/v2/nothing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, code: 'route_not_found' });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
