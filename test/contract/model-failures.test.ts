// Model problems are never a 500: a missing key is 400 missing_model_key naming the provider, a
// provider error or malformed output is 502 model_error without the key, a model that never answers
// is cut off by options.timeout (408, or the error event on a stream). Variable values never reach
// a model request, a log line, an SSE event or replay.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server';
import { expectError, expectOk, finishedOf, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

let model: ModelServer;
beforeAll(async () => {
  model = await startModelServer();
});
afterAll(() => model.close());
const ctx = useContract();
beforeEach(() => {
  model.requests.length = 0;
});

const json = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };
const KEY = 'sk-never-echo-this-key-31337';
const llm = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: KEY, baseURL: `${model.url}/v1` });

describe('model failures', () => {
  it('a session on a provider with no key starts fine and its first model operation is 400 missing_model_key', async () => {
    const id = await ctx.sessionOn('forms.html', { modelName: 'anthropic/claude-3-5-haiku-latest' });
    const body = expectError(await ctx.api.call('act', { id, body: { input: 'click Go' }, headers: json }), 400, 'missing_model_key');
    expect(body.message).toMatch(/anthropic/);
    expect(body.message).toMatch(/ANTHROPIC_API_KEY/);
    expectError(await ctx.api.call('observe', { id, body: {}, headers: json }), 400, 'missing_model_key');
    expectError(await ctx.api.call('extract', { id, body: { instruction: 'the heading' }, headers: json }), 400, 'missing_model_key');
    // An Action object needs no model, and page text needs none either.
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } }, headers: json }));
    expectOk(await ctx.api.call('extract', { id, body: {}, headers: json }));
  });

  it('a per-call model with no key anywhere is 400 missing_model_key naming its provider', async () => {
    const id = await ctx.sessionOn('forms.html');
    const body = expectError(
      await ctx.api.call('extract', { id, body: { instruction: 'the heading', options: { model: 'google/gemini-2.5-flash' } }, headers: json }),
      400,
      'missing_model_key',
    );
    expect(body.message).toMatch(/google/);
  });

  it('a provider 500 is 502 model_error that does not carry the key', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.script([{ status: 500, message: `upstream exploded for key ${KEY}` }, { status: 500, message: `upstream exploded for key ${KEY}` }]);
    const body = expectError(await ctx.api.call('act', { id, body: { input: 'click Go', options: { model: llm() } }, headers: json }), 502, 'model_error');
    expect(body.message).toMatch(/HTTP 500/);
    expect(body.message).not.toContain(KEY);
    expect(ctx.server.logs.join('\n')).not.toContain(KEY);
  }, 20_000);

  it('malformed output, after the one retry, is 502 model_error', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.script([{ text: 'I would click the button.' }, { text: 'Sure! Clicking now.' }]);
    const body = expectError(await ctx.api.call('observe', { id, body: { instruction: 'buttons', options: { model: llm() } }, headers: json }), 502, 'model_error');
    expect(body.message).toMatch(/does not match the expected format/);
    expect(model.requests).toHaveLength(2);
  });

  it('options.timeout cancels a model call that never answers: 408 as JSON', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.hang();
    const body = expectError(
      await ctx.api.call('act', { id, body: { input: 'click Go', options: { model: llm(), timeout: 600 } }, headers: json }),
      408,
      'timeout',
    );
    expect(body.message).toMatch(/timed out|cancelled/);
    expect(model.requests).toHaveLength(1);
    // The model call itself was aborted, not just waited out.
    await expect.poll(() => model.requests[0]!.abandoned).toBe(true);
    // The session is free again at once.
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } }, headers: json }));
  });

  it('options.timeout on a streamed extract ends the stream with an error event', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.hang();
    const reply = await ctx.api.call('extract', {
      id,
      body: { instruction: 'the heading', options: { model: llm(), timeout: 600 } },
      headers: { 'x-stream-response': 'true' },
    });
    expect(reply.status).toBe(200);
    const last = reply.events!.at(-1)!;
    expect(last.data.status).toBe('error');
    expect(String(last.data.error)).toMatch(/timed out|cancelled/);
    await expect.poll(() => model.requests[0]!.abandoned).toBe(true);
  });
});

describe('variable values stay out of models, logs, events and replay', () => {
  it('the model sees %name% and masked values; the page gets the real value', async () => {
    const id = await ctx.sessionOn('forms.html', { verbose: 2 });
    const secret = 'correct-horse-battery-4242';
    const options = { model: llm(), variables: { who: { value: secret, description: 'the name to enter' } } };

    model.script({ json: { elementId: null, reason: 'probe' } });
    expectOk(await ctx.api.call('act', { id, body: { input: 'fill %who% into Name', options }, headers: json }));
    const nameId = /\[(\d+)\] textbox \\"Name\\"/.exec(model.requests[0]!.raw)?.[1];
    expect(nameId).toBeTruthy();
    expect(model.requests[0]!.raw).toContain('%who%: the name to enter');

    model.script({ json: { elementId: nameId, method: 'fill', arguments: ['%who%'], description: 'fill the Name field' } });
    const streamed = await ctx.api.call('act', { id, body: { input: 'fill %who% into Name', options }, headers: { 'x-stream-response': 'true', 'browserbase-cache-bypass': 'true' } });
    const finished = finishedOf(streamed);
    expect(finished.result.success).toBe(true);
    expect(finished.result.actions[0].arguments).toEqual(['%who%']);

    // The field now holds the value: the next snapshot must show it masked.
    model.script({ json: { elementId: null, reason: 'nothing to do' } });
    expectOk(await ctx.api.call('act', { id, body: { input: 'clear %who% from Name', options }, headers: json }));
    expect(model.requests[2]!.raw).toContain('••••');

    expect(model.requests.map((r) => r.raw).join('\n')).not.toContain(secret);
    expect(JSON.stringify(streamed.events)).not.toContain(secret);
    expect(ctx.server.logs.join('\n')).not.toContain(secret);
    expect(ctx.server.logs.join('\n')).not.toContain(KEY);
    const replay = await ctx.api.call('replaySession', { id });
    expect(JSON.stringify(replay.body)).not.toContain(secret);
    expect(JSON.stringify(replay.body)).not.toContain(KEY);

    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#submit', method: 'click' } }, headers: json }));
    // The page echoes the value, and the session masks it there too (a literal "%who%" would show itself).
    expect(await pageText(ctx.api, id, '#result')).toContain('submitted: •••• /');
  });
});
