// Server-sent events exactly as Stagehand clients parse them.
import { describe, expect, it } from 'vitest';
import { closedPortUrl } from '../support/closed-port';
import { expectError, finishedOf, useContract } from '../support/contract';

const ctx = useContract({ DECKHAND_SSE_HEARTBEAT_MS: '100' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('streaming', () => {
  it('frames starting, connected, logs and one finished event, keys in order, UUID ids', async () => {
    const id = await ctx.sessionOn('forms.html');
    const reply = await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } }, headers: { 'x-stream-response': 'true' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/event-stream');
    const finished = finishedOf(reply);
    expect(finished.result).toMatchObject({ success: true });
    expect(finished.actionId).toMatch(UUID);
    const events = reply.events!;
    expect(events.filter((e) => ['finished', 'error'].includes(e.data.status))).toHaveLength(1);
    for (const event of events) {
      expect(Object.keys(event)).toEqual(['data', 'type', 'id']);
      expect(Object.keys(event.data)[0]).toBe('status');
      expect(event.id).toMatch(UUID);
      expect(event.type).toBe(event.data.status === 'running' ? 'log' : 'system');
    }
    for (const log of events.filter((e) => e.data.status === 'running')) expect(typeof log.data.message.message).toBe('string');
    if (ctx.api.name === 'http') {
      const text = reply.body as string;
      expect(text.startsWith('data: {"data":{"status":"starting"},"type":"system","id":"')).toBe(true);
      for (const chunk of text.split('\n\n').filter(Boolean)) expect(chunk).toMatch(/^(data: \{.*\}|: ping)$/);
      expect(text).toContain('data: {"data":{"status":"finished"');
    }
  });

  it('lets a body streamResponse win over the header, and answers JSON when false', async () => {
    const id = await ctx.sessionOn('forms.html');
    const streamed = await ctx.api.call('extract', { id, body: { streamResponse: true }, headers: { 'x-stream-response': 'false' } });
    expect(finishedOf(streamed).result.pageText).toContain('Sign up');
    const plain = await ctx.api.call('extract', { id, body: { streamResponse: false }, headers: { 'x-stream-response': 'true' } });
    expect(plain.headers.get('content-type')).toContain('application/json');
    expect(plain.body.data.result.pageText).toContain('Sign up');
    const byDefault = await ctx.api.call('extract', { id, body: {} });
    expect(byDefault.body.success).toBe(true);
  });

  it('rejects x-stream-response values other than the exact strings', async () => {
    const id = await ctx.startSession();
    const error = expectError(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') }, headers: { 'x-stream-response': 'yes' } }), 400, 'validation_error');
    expect(error.issues![0]!.path).toBe('header.x-stream-response');
    expectError(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') }, headers: { 'x-language': 'cobol' } }), 400, 'validation_error');
  });

  it('reports a failure after the stream opened as an error event with status 200', async () => {
    const id = await ctx.startSession();
    const reply = await ctx.api.call('navigate', { id, body: { url: await closedPortUrl() }, headers: { 'x-stream-response': 'true' } });
    expect(reply.status).toBe(200);
    const last = reply.events!.at(-1)!;
    expect(last.data.status).toBe('error');
    expect(last.data).toMatchObject({ code: 'navigation_failed', error: expect.stringMatching(/ERR_CONNECTION_REFUSED/) });
    expect(reply.events!.filter((e) => e.data.status === 'finished')).toHaveLength(0);
  });

  // Heartbeats are comments the client's reader drops by design, so only raw HTTP can see them.
  it.skipIf(process.env.CONTRACT_DRIVER === 'client')('sends comment heartbeats during a long operation', async () => {
    const id = await ctx.sessionOn('slow.html');
    const response = await fetch(`${ctx.server.url}/v1/sessions/${id}/act`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stream-response': 'true' },
      body: JSON.stringify({ input: { selector: '#fetch', method: 'click' } }),
    });
    const text = await response.text();
    expect(text).toContain(': ping\n\n');
    expect(text).toContain('"status":"finished"');
  });

  it('cancels the operation when the client disconnects, and the session stays usable', async () => {
    const id = await ctx.sessionOn('slow.html');
    const abort = new AbortController();
    const pending = fetch(`${ctx.server.url}/v1/sessions/${id}/navigate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stream-response': 'true' },
      body: JSON.stringify({ url: ctx.fixtures.url('api/delay?ms=20000'), options: { timeout: 30_000 } }),
      signal: abort.signal,
    }).then((r) => r.text());
    setTimeout(() => abort.abort(), 300);
    await expect(pending).rejects.toThrow();
    // The browser stopped loading: Chromium hung up on the slow response.
    await expect.poll(() => ctx.fixtures.abandoned, { timeout: 10_000 }).toContain('/api/delay?ms=20000');
    const next = await ctx.api.call('extract', { id, body: {}, headers: { 'x-stream-response': 'false' } });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
  });
});
