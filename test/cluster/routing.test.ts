// Issue 20: any node answers any request. A session started on A is driven through B and C (JSON and
// streamed), its cdpUrl through B, its live page through C, its replay through A; a project only ever
// reaches its own sessions, whichever node it asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { call, KEYS, onNode, startCluster, startSession, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => cluster?.close());

describe('a session started on A', () => {
  it('is driven through B and C, over CDP through B, watched through C, replayed on A', async () => {
    const [a, b, c] = cluster.nodes as [any, any, any];
    const { sessionId, cdpUrl, sessionUrl } = await startSession(a);
    const base = `/v1/sessions/${sessionId}`;

    const navigated = await call(b, 'POST', `${base}/navigate`, { url: cluster.fixtures.url('forms.html') });
    expect(navigated.status, JSON.stringify(navigated.body)).toBe(200);

    const acted = await call(c, 'POST', `${base}/act`, { input: { selector: '#name', method: 'fill', arguments: ['Ada'], description: 'the Name field' } });
    expect(acted.status, JSON.stringify(acted.body)).toBe(200);
    expect(acted.body.data.result.success).toBe(true);
    // A forwarded JSON answer is passed on whole, with its length (not as a chunked stream).
    expect(acted.headers.get('content-length')).toMatch(/^\d+$/);

    const streamed = await fetch(`${c.url}${base}/act`, {
      method: 'POST',
      headers: { 'x-bb-api-key': KEYS.alpha, 'content-type': 'application/json', 'x-stream-response': 'true' },
      body: JSON.stringify({ input: { selector: '#go', method: 'click', arguments: [], description: 'the Go button' } }),
    });
    expect(streamed.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(streamed.headers.get('content-length')).toBeNull();
    const events = await streamed.text();
    expect(events).toMatch(/"status":"running"/);
    expect(events).toMatch(/"status":"finished"/);

    // The cdpUrl, through B (as a load balancer in front would send it): Playwright drives the same page.
    const browser = await chromium.connectOverCDP(onNode(cdpUrl, b));
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      expect(await page.inputValue('#name')).toBe('Ada');
      await page.fill('#email', 'ada@example.com');
    } finally {
      await browser.close();
    }
    const extracted = await call(b, 'POST', `${base}/extract`, { options: { selector: '#email' } });
    expect(extracted.status).toBe(200);

    // The live page and its state, through C.
    const livePage = await fetch(onNode(sessionUrl, c));
    expect(livePage.status).toBe(200);
    expect(await livePage.text()).toMatch(/<html/i);
    const token = new URL(sessionUrl).searchParams.get('token')!;
    const state = await fetch(`${c.url}${base}/live/state?token=${encodeURIComponent(token)}`);
    expect(state.status).toBe(200);

    const replay = await call(a, 'GET', `${base}/replay`);
    expect(replay.status).toBe(200);
    const methods = replay.body.data.pages.flatMap((page: { actions: Array<{ method: string }> }) => page.actions.map((action) => action.method));
    expect(methods).toEqual(expect.arrayContaining(['navigate', 'act', 'extract']));

    expect((await call(b, 'POST', `${base}/end`, {})).status).toBe(200);
    const after = await call(c, 'POST', `${base}/act`, { input: { selector: '#go', method: 'click', arguments: [] } });
    expect(after.status).toBe(410);
    expect(after.body.code).toBe('session_gone');
  });

  it('cancels a streamed operation on the owner when the client of another node hangs up', async () => {
    const [a, b] = cluster.nodes as [any, any];
    const { sessionId } = await startSession(a);
    const abort = new AbortController();
    const pending = fetch(`${b.url}/v1/sessions/${sessionId}/navigate`, {
      method: 'POST',
      headers: { 'x-bb-api-key': KEYS.alpha, 'content-type': 'application/json', 'x-stream-response': 'true' },
      body: JSON.stringify({ url: cluster.fixtures.url('api/delay?ms=20000&via=b'), options: { timeout: 30_000 } }),
      signal: abort.signal,
    }).then((r) => r.text());
    setTimeout(() => abort.abort(), 500);
    await expect(pending).rejects.toThrow();
    // The owner's browser stopped loading: Chromium hung up on the slow response.
    await expect.poll(() => cluster.fixtures.abandoned, { timeout: 10_000 }).toContain('/api/delay?ms=20000&via=b');
    expect((await call(b, 'POST', `/v1/sessions/${sessionId}/extract`, {})).status).toBe(200);
  });

  it('is another project\'s on every node: 404, whatever project header the client sends', async () => {
    const [a, b, c] = cluster.nodes as [any, any, any];
    const { sessionId } = await startSession(a);
    for (const node of [a, b, c]) {
      const answer = await call(node, 'POST', `/v1/sessions/${sessionId}/navigate`, { url: cluster.fixtures.url('forms.html') }, KEYS.beta, { 'x-deckhand-project': 'alpha' });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('session_not_found');
    }
    const missing = await call(b, 'GET', `/v1/sessions/${sessionId}/replay`, undefined, 'not-a-key');
    expect(missing.status).toBe(401);
  });
});
