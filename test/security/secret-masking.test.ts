// Security: a value the client typed from a variable is a secret for the rest of the session. An
// ordinary field (not a password field) holds it and the page echoes it, yet no read-back shows it:
// not extract (schema, page text, scoped), observe, the event stream, replay, the server log, nor
// what a model provider is sent. The mask stands where the value would be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, finishedOf, useContract } from '../support/contract';
import { startModelServer, type ModelServer } from '../support/model-server';

const ctx = useContract();
const json = { 'x-stream-response': 'false' };
const stream = { 'x-stream-response': 'true' };
const SECRET = 'hunter2-SECRET';
const MASK = '••••';
const NOTE_SCHEMA = { type: 'object', properties: { Note: { type: 'string' } }, required: ['Note'] };

let model: ModelServer;
beforeAll(async () => {
  model = await startModelServer();
});
afterAll(() => model.close());

/** A session on the note form with `value` typed into its Note field from a variable; the act's events. */
async function typedSecret(value: string) {
  const id = await ctx.sessionOn('note-form.html');
  const reply = await ctx.api.call('act', {
    id,
    body: { input: 'type %password% into the Note field', options: { variables: { password: { value, description: 'the password' } } } },
    headers: stream,
  });
  expect(reply.status).toBe(200);
  expect(finishedOf(reply).result.success).toBe(true);
  return { id, events: reply.events };
}

async function call(op: 'extract' | 'observe', id: string, body: unknown) {
  const reply = await ctx.api.call(op, { id, body, headers: json });
  expectOk(reply);
  expect(JSON.stringify(reply.body)).not.toContain(SECRET);
  return reply.body.data.result;
}

describe('a value typed from a variable', () => {
  it('is masked in extract results: a schema naming its field, the page text, scoped reads', async () => {
    const { id, events } = await typedSecret(SECRET);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(await call('extract', id, { schema: NOTE_SCHEMA })).toEqual({ Note: MASK });
    expect((await call('extract', id, {})).pageText).toContain(`Preview: ${MASK}`);
    expect((await call('extract', id, { options: { selector: '#preview' } })).pageText).toBe(`Preview: ${MASK}`);
    expect(await call('extract', id, { schema: NOTE_SCHEMA, options: { selector: '#note-form' } })).toEqual({ Note: MASK });
  });

  it('is masked in observe results and in the finished event of a streamed extract', async () => {
    const { id } = await typedSecret(SECRET);
    const observed = await call('observe', id, {});
    expect(JSON.stringify(observed)).toContain('Note');
    const reply = await ctx.api.call('extract', { id, body: { schema: NOTE_SCHEMA }, headers: stream });
    expect(reply.status).toBe(200);
    expect(finishedOf(reply).result).toEqual({ Note: MASK });
    expect(JSON.stringify(reply.events)).not.toContain(SECRET);
  });

  it('is masked in replay, including what was recorded before it became a variable', async () => {
    const id = await ctx.sessionOn('note-form.html');
    // Typed first as a plain literal: the instruction and the page text recorded now hold the value.
    expectOk(await ctx.api.call('act', { id, body: { input: `type "${SECRET}" into the Note field` }, headers: json }));
    expect((await ctx.api.call('extract', { id, body: {}, headers: json })).body.data.result.pageText).toContain(SECRET);
    const act = await ctx.api.call('act', {
      id,
      body: { input: 'type %password% into the Topic field', options: { variables: { password: SECRET } } },
      headers: json,
    });
    expectOk(act);
    await call('extract', id, { schema: NOTE_SCHEMA });
    await call('extract', id, {});
    const replay = await ctx.api.call('replaySession', { id });
    expectOk(replay);
    const text = JSON.stringify(replay.body);
    expect(text).not.toContain(SECRET);
    expect(text).toContain(MASK);
    expect(ctx.server.logs.join('\n')).not.toContain(SECRET);
  });

  it('is never sent to a model provider', async () => {
    const { id } = await typedSecret(SECRET);
    model.requests.length = 0;
    model.script({ json: { Note: 'whatever the model says' } });
    const modelConfig = { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test', baseURL: `${model.url}/v1` };
    await call('extract', id, { instruction: 'the note', schema: NOTE_SCHEMA, options: { model: modelConfig } });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.raw).toContain('Note');
    expect(model.requests[0]!.raw).toContain(MASK);
    expect(model.requests[0]!.raw).not.toContain(SECRET);
  });

  it('of under four characters is masked where it stands alone, not inside other words', async () => {
    const { id, events } = await typedSecret('at');
    // The act's own report is not wrecked either: "xpath" and "status" keep their letters.
    expect(events!.at(-1)!.data.result.message).toMatch(/^Action \[fill\] performed successfully on selector: xpath=/);
    expect(await call('extract', id, { schema: NOTE_SCHEMA })).toEqual({ Note: MASK });
    const text = (await call('extract', id, {})).pageText as string;
    expect(text).toContain(`Preview: ${MASK}`);
    expect(text).toContain('A fact about cats: a cat sleeps most of the day.');
  });
});

describe('a value typed from a variable into a GET form', () => {
  // Its characters change once encoded (space, slash, bang, ampersand, quote), so every encoded form must be masked.
  const VALUE = `Zq7 secret/Val!&"x`;
  const ENCODED = [encodeURIComponent(VALUE), new URLSearchParams({ q: VALUE }).toString().slice(2), 'Zq7+secret', 'Zq7%20secret', 'secret&amp;', '&quot;x'];

  it('is masked in its encoded forms: the address in page text, the act result, replay', async () => {
    const id = await ctx.sessionOn('search-form.html');
    const variables = { pw: { value: VALUE } };
    const typed = await ctx.api.call('act', { id, body: { input: 'type %pw% into Search', options: { variables } }, headers: json });
    expectOk(typed);
    const go = await ctx.api.call('act', { id, body: { input: 'click Go' }, headers: json });
    expectOk(go);
    const text = (await call('extract', id, {})).pageText as string;
    expect(text).toMatch(/Address: .*search-form\.html\?q=/);
    expect(text).toContain(MASK);
    const replay = await ctx.api.call('replaySession', { id });
    expectOk(replay);
    for (const body of [text, JSON.stringify(go.body), JSON.stringify(replay.body)]) {
      for (const encoded of ENCODED) expect(body).not.toContain(encoded);
      expect(body).not.toContain('secret');
    }
  });
});
