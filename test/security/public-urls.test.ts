// Issue 17: the URLs the server hands out (cdpUrl, sessionUrl, debugUrl, connectUrl, the debug page's
// wsUrl, the DevTools redirect) carry tokens, so they are built on DECKHAND_PUBLIC_URL or the server's
// listen address, never on the Host header of the request that asked for them: with `Host:
// attacker.example` a client (or a cache, or a link shared by a proxy) got a token-bearing URL on that host.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { START_BODY, useContract } from '../support/contract';
import { startTestServer } from '../support/test-server';

const ctx = useContract({ DECKHAND_API_KEYS: 'key-a:project-a' }, { 'x-bb-api-key': 'key-a' });

/** A request with a Host header of our choosing (fetch refuses to set Host). */
function withHost(base: string, method: string, path: string, host: string, body?: unknown): Promise<{ status: number; location?: string; body: any }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { host, 'x-bb-api-key': 'key-a', ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body: text && res.headers['content-type']?.includes('json') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/** Every URL in an answer, with the Host we sent nowhere in it. */
function urlsIn(value: unknown): string[] {
  return JSON.stringify(value).match(/(?:https?|wss?):\/\/[^"\\]+/g) ?? [];
}

describe('returned URLs ignore the Host header', () => {
  it('start, the session record, its debug page and the DevTools redirect build URLs on the listen address', async () => {
    const origin = new URL(ctx.server.url).host;
    const started = await withHost(ctx.server.url, 'POST', '/v1/sessions/start', 'attacker.example', START_BODY);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { sessionId, cdpUrl, sessionUrl, debugUrl } = started.body.data;
    for (const url of [cdpUrl, sessionUrl, debugUrl]) expect(new URL(url).host).toBe(origin);

    const record = await withHost(ctx.server.url, 'GET', `/v1/sessions/${sessionId}`, 'attacker.example:8443');
    const debug = await withHost(ctx.server.url, 'GET', `/v1/sessions/${sessionId}/debug`, 'attacker.example');
    const found = [...urlsIn(record.body), ...urlsIn(debug.body)];
    expect(found.length).toBeGreaterThanOrEqual(5);
    for (const url of found) expect(new URL(url).host).toBe(origin);

    const redirect = await withHost(ctx.server.url, 'GET', new URL(debugUrl).pathname + new URL(debugUrl).search, 'attacker.example');
    expect(redirect.status).toBe(302);
    expect(decodeURIComponent(redirect.location!)).not.toMatch(/attacker/);
    expect(decodeURIComponent(redirect.location!)).toContain(origin);
    expect((await withHost(ctx.server.url, 'POST', `/v1/sessions/${sessionId}/end`, origin, {})).status).toBe(200);
  });

  it('DECKHAND_PUBLIC_URL still wins over both', async () => {
    const fronted = await startTestServer({ DECKHAND_API_KEYS: 'key-a:project-a', DECKHAND_PUBLIC_URL: 'https://deckhand.example.com' });
    try {
      const started = await withHost(fronted.url, 'POST', '/v1/sessions/start', 'attacker.example', START_BODY);
      expect(started.status).toBe(200);
      for (const url of urlsIn(started.body)) expect(new URL(url).host).toBe('deckhand.example.com');
      await withHost(fronted.url, 'POST', `/v1/sessions/${started.body.data.sessionId}/end`, 'deckhand.example.com', {});
    } finally {
      await fronted.close();
    }
  });
});
