// /metrics in the Prometheus text format: the counters move with what the server does (an act, a 404,
// a model call on the loopback model server), and no label carries a session id, URL or instruction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server';
import { expectOk, useContract } from '../support/contract';

let model: ModelServer;
// Filled in before the Deckhand server starts (this hook is registered first, so it runs first).
const env: Record<string, string> = {};
beforeAll(async () => {
  model = await startModelServer();
  Object.assign(env, { OPENAI_API_KEY: 'sk-metrics-env-key', OPENAI_BASE_URL: `${model.url}/v1` });
});
afterAll(() => model.close());
const ctx = useContract(env);
const json = { 'x-stream-response': 'false' };

/** Each sample of the exposition as `name{labels}` → value (labels as written, in the order written). */
async function scrape(): Promise<{ text: string; samples: Map<string, number> }> {
  const response = await fetch(`${ctx.server.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z_:][a-z0-9_:]*(?:\{[^}]*\})?) (\S+)$/i.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return { text, samples };
}

const value = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;

describe('/metrics', () => {
  it('counts an act by kind and outcome with its latency and queue wait, and the session by state', async () => {
    const id = await ctx.sessionOn('forms.html');
    const before = (await scrape()).samples;
    const instruction = 'fill "Ada" into Name';
    expectOk(await ctx.api.call('act', { id, body: { input: instruction }, headers: { ...json, 'browserbase-cache-bypass': 'true' } }));
    const { text, samples } = await scrape();
    const count = 'deckhand_operation_duration_seconds_count{kind="act",outcome="success"}';
    expect(value(samples, count) - value(before, count)).toBe(1);
    expect(value(samples, 'deckhand_operation_duration_seconds_sum{kind="act",outcome="success"}')).toBeGreaterThan(value(before, 'deckhand_operation_duration_seconds_sum{kind="act",outcome="success"}'));
    expect(value(samples, 'deckhand_operation_duration_seconds_bucket{le="+Inf",kind="act",outcome="success"}')).toBe(value(samples, count));
    expect(value(samples, 'deckhand_operation_queue_wait_seconds_count{kind="act"}') - value(before, 'deckhand_operation_queue_wait_seconds_count{kind="act"}')).toBe(1);
    expect(value(samples, 'deckhand_sessions{state="ready"}')).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'deckhand_sessions_started_total')).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'deckhand_browsers{kind="shared"}') + value(samples, 'deckhand_browsers{kind="session"}')).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'deckhand_browser_contexts{kind="shared"}') + value(samples, 'deckhand_browser_contexts{kind="session"}')).toBe(
      value(samples, 'deckhand_sessions{state="ready"}') + value(samples, 'deckhand_sessions{state="busy"}'),
    );
    expect(samples.has('deckhand_warm_pool_browsers{state="ready"}')).toBe(true);
    expect(samples.has('process_cpu_user_seconds_total')).toBe(true);
    // Nothing of the session in the exposition: no id, no page address, no instruction.
    for (const secret of [id, ctx.fixtures.url('forms.html'), instruction, 'Ada']) expect(text).not.toContain(secret);
  });

  it('counts a failed operation under its error code, and an ended session under its reason', async () => {
    const id = await ctx.startSession();
    const before = (await scrape()).samples;
    await ctx.api.call('act', { id, body: { input: { selector: '#nowhere', method: 'click', arguments: [] } }, headers: json });
    expectOk(await ctx.api.call('endSession', { id, body: {} }));
    const { samples } = await scrape();
    const failed = [...samples.keys()].filter((key) => key.startsWith('deckhand_operation_duration_seconds_count{kind="act",outcome="') && !key.includes('"success"'));
    expect(failed.reduce((total, key) => total + value(samples, key) - value(before, key), 0)).toBe(1);
    expect(value(samples, 'deckhand_sessions_stopped_total{reason="ended"}') - value(before, 'deckhand_sessions_stopped_total{reason="ended"}')).toBe(1);
  });

  it('counts HTTP responses by status: a 404 moves its counter', async () => {
    const before = (await scrape()).samples;
    expect((await fetch(`${ctx.server.url}/v1/sessions/00000000-0000-0000-0000-000000000000/replay`)).status).toBe(404);
    expect((await fetch(`${ctx.server.url}/v2/nothing`)).status).toBe(404);
    const { samples } = await scrape();
    expect(value(samples, 'deckhand_http_responses_total{status="404"}') - value(before, 'deckhand_http_responses_total{status="404"}')).toBe(2);
    expect(value(samples, 'deckhand_http_responses_total{status="200"}')).toBeGreaterThan(value(before, 'deckhand_http_responses_total{status="200"}'));
  });

  it('counts model tokens and model time by provider for a call on the loopback model server', async () => {
    const id = await ctx.sessionOn('forms.html');
    const before = (await scrape()).samples;
    model.script({ json: { extraction: 'from the model' }, usage: { input: 123, output: 45 } });
    const reply = await ctx.api.call('extract', { id, body: { instruction: 'the heading', options: { model: 'openai/gpt-4.1-mini' } }, headers: json });
    expectOk(reply);
    const { text, samples } = await scrape();
    expect(value(samples, 'deckhand_model_tokens_total{provider="openai",type="input"}') - value(before, 'deckhand_model_tokens_total{provider="openai",type="input"}')).toBe(123);
    expect(value(samples, 'deckhand_model_tokens_total{provider="openai",type="output"}') - value(before, 'deckhand_model_tokens_total{provider="openai",type="output"}')).toBe(45);
    const calls = 'deckhand_model_call_duration_seconds_count{provider="openai",outcome="success"}';
    expect(value(samples, calls) - value(before, calls)).toBe(1);
    expect(value(samples, 'deckhand_operation_duration_seconds_count{kind="extract",outcome="success"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('sk-metrics-env-key');
    expect(text).not.toContain(model.url);
  });
});

describe('/metrics on a server with API keys', () => {
  const keyed = useContract({ DECKHAND_API_KEYS: 'metrics-key-1:alpha:rate=1' });

  it('answers 401 without a key or with an unknown one, and 200 with a project key, never rate-limited', async () => {
    const url = `${keyed.server.url}/metrics`;
    const missing = await fetch(url);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ success: false, code: 'unauthorized' });
    expect((await fetch(url, { headers: { 'x-bb-api-key': 'not-a-key' } })).status).toBe(401);
    // The project may send one request a second (a burst of two): ten scrapes in a row all pass.
    for (let i = 0; i < 10; i++) {
      const scraped = await fetch(url, { headers: { authorization: 'Bearer metrics-key-1' } });
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toContain('deckhand_sessions{state="ready"}');
      expect(text).not.toContain('metrics-key-1');
    }
  });
});
