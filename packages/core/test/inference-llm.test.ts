import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startModelServer, type ModelServer } from '../../../test/support/model-server.js';
import { createInference } from '../src/inference/create-inference.js';
import type { Inference } from '../src/inference/types.js';
import { inProcessModel } from '../src/models/language-model.js';
import type { ModelCallRecord } from '../src/models/model-calls.js';
import { createModelClient } from '../src/models/model-client.js';
import { inProcessTarget } from '../src/models/resolve-model.js';
import { UsageMeter } from '../src/models/usage.js';
import { snapshot } from './inference-snapshot.js';

let server: ModelServer;
let llm: Inference;
const signal = new AbortController().signal;

beforeAll(async () => {
  server = await startModelServer();
  llm = createInference(
    { modelName: 'openai/gpt-4.1-mini', baseURL: `${server.url}/v1` },
    { env: { OPENAI_API_KEY: 'sk-env-key' }, systemPrompt: 'Prefer buttons over links.' },
  );
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

describe('LLM inference: chooseAction', () => {
  it('shows the model the outline, the instruction and variables by name only', async () => {
    // The value lives only here: inference is never given it, and this proves no path leaks it.
    const secretValue = 'hunter2-correct-horse';
    server.script({ json: { elementId: '7', method: 'fill', arguments: ['%password%'], description: 'fill the password' } });
    const usage = new UsageMeter();
    const result = await llm.chooseAction({
      instruction: 'type %password% into the password field',
      snapshot,
      variables: [{ name: 'password', description: 'the account password' }],
      signal,
      usage,
    });
    expect(result).toEqual({ elementId: '7', method: 'fill', arguments: ['%password%'], description: 'fill the password' });
    const [req] = server.requests;
    expect(req?.raw).toContain('[9] button \\"Sign in\\"');
    expect(req?.raw).toContain('%password%: the account password');
    expect(req?.raw).toContain('Prefer buttons over links.');
    expect(server.requests.map((r) => r.raw).join('\n')).not.toContain(secretValue);
    expect(usage.total.calls).toBe(1);
    expect(usage.total.inputTokens).toBeGreaterThan(0);
  });

  it('retries once when the model names an element that is not on the page', async () => {
    server.script([
      { json: { elementId: '99', method: 'click', arguments: [], description: 'click sign in' } },
      { json: { elementId: '9', method: 'click', arguments: [], description: 'click sign in' } },
    ]);
    const result = await llm.chooseAction({ instruction: 'sign in', snapshot, variables: [], signal, usage: new UsageMeter() });
    expect(result).toMatchObject({ elementId: '9' });
    expect(server.requests[1]?.raw).toContain('element id \\"99\\" is not in the page outline');
  });

  it('passes on the reason when the model names no element', async () => {
    server.script({ json: { elementId: null, reason: 'There is no checkout button on this page' } });
    const result = await llm.chooseAction({ instruction: 'check out', snapshot, variables: [], signal, usage: new UsageMeter() });
    expect(result).toEqual({ failure: 'There is no checkout button on this page' });
    const body = server.requests[0]?.body as { text: { format: { schema: { properties: { elementId: { type: unknown } }; required: string[] } } } };
    expect(body.text.format.schema.properties.elementId.type).toEqual(['string', 'null']);
    expect(body.text.format.schema.required).toEqual(['elementId']);
  });

  it('rejects a method outside the allowed list', async () => {
    server.script([
      { json: { elementId: '9', method: 'doubleClick', arguments: [], description: 'x' } },
      { json: { elementId: '9', method: 'doubleClick', arguments: [], description: 'x' } },
    ]);
    await expect(llm.chooseAction({ instruction: 'sign in', snapshot, variables: [], signal, usage: new UsageMeter() })).rejects.toMatchObject({
      code: 'model_error',
    });
  });
});

/**
 * What small local models (Ollama, LM Studio) answer: extra or filled-in text fields, placeholders
 * for fields they did not need. Whether the answer acts depends on the element id alone.
 */
describe('LLM inference: act answers from small models, in each wire format', () => {
  const FORMATS: Array<[string, () => Parameters<typeof createInference>[0]]> = [
    ['OpenAI Responses', () => ({ modelName: 'openai/gpt-4.1-mini', baseURL: `${server.url}/v1` })],
    ['Chat Completions (a local OpenAI-compatible server)', () => ({ modelName: 'ollama/qwen2.5:3b', baseURL: `${server.url}/v1`, openaiEndpointFormat: 'chat' })],
    ['Anthropic Messages', () => ({ modelName: 'anthropic/claude-3-5-haiku-latest', apiKey: 'ant-call', baseURL: `${server.url}/v1` })],
    ['Google generateContent', () => ({ modelName: 'google/gemini-2.5-flash', apiKey: 'AIza-call', baseURL: `${server.url}/v1beta` })],
  ];
  const ENV = { OPENAI_API_KEY: 'sk-env', ANTHROPIC_API_KEY: 'ant-env', GOOGLE_GENERATIVE_AI_API_KEY: 'AIza-env' };
  const choose = (model: Parameters<typeof createInference>[0]) =>
    createInference(model, { env: ENV }).chooseAction({ instruction: 'click Sign in', snapshot, variables: [], signal, usage: new UsageMeter() });

  const ACTS: Array<[string, Record<string, unknown>]> = [
    ['a leftover "failure": "none"', { elementId: '9', method: 'click', arguments: [], description: 'click Sign in', failure: 'none' }],
    ['"reason": "n/a"', { elementId: '9', method: 'click', arguments: [], description: 'click Sign in', reason: 'n/a' }],
    ['"reason": "ok"', { elementId: '9', method: 'click', arguments: [], description: 'click Sign in', reason: 'ok' }],
    ['no description or arguments', { elementId: '9', method: 'click' }],
  ];
  const REFUSALS: Array<[string, Record<string, unknown>, string]> = [
    ['elementId null', { elementId: null, reason: 'There is no Sign in button' }, 'There is no Sign in button'],
    ['elementId null with placeholder action fields', { elementId: null, method: 'none', arguments: [], description: '', reason: 'nothing fits' }, 'nothing fits'],
    ['an empty elementId with an element method', { elementId: '', method: 'click', arguments: [], description: '', reason: 'not found' }, 'not found'],
    ['no elementId and no reason', { method: 'click' }, 'the model found no element on the page for this instruction'],
  ];

  for (const [format, model] of FORMATS) {
    it.each(ACTS)(`${format}: acts on a valid id despite %s`, async (_name, answer) => {
      server.script({ json: answer });
      expect(await choose(model())).toMatchObject({ elementId: '9', method: 'click', arguments: [] });
      expect(server.requests).toHaveLength(1);
    });

    it.each(REFUSALS)(`${format}: refuses on %s`, async (_name, answer, reason) => {
      server.script({ json: answer });
      expect(await choose(model())).toEqual({ failure: reason });
      expect(server.requests).toHaveLength(1);
    });
  }

  it('acts on the page itself with "" and a page method', async () => {
    server.script({ json: { elementId: '', method: 'scrollTo', arguments: ['100%'], description: 'scroll to the bottom', reason: 'none' } });
    expect(await choose(FORMATS[1]![1]())).toEqual({ elementId: '', method: 'scrollTo', arguments: ['100%'], description: 'scroll to the bottom' });
  });

  it('asks again when the answer names an element without a method', async () => {
    server.script([{ json: { elementId: '9', reason: 'none' } }, { json: { elementId: '9', method: 'click' } }]);
    expect(await choose(FORMATS[1]![1]())).toMatchObject({ elementId: '9', method: 'click' });
    expect(server.requests[1]?.raw).toContain('method is required when elementId names an element');
  });
});

describe('LLM inference: observe', () => {
  it('returns the listed actions after checking their ids', async () => {
    server.script({
      json: {
        elements: [
          { elementId: '15', method: 'click', arguments: [], description: 'Delete Alice' },
          { elementId: '16', method: 'click', arguments: [], description: 'Delete Bob' },
        ],
      },
    });
    const result = await llm.observe({ instruction: 'delete buttons', snapshot, signal, usage: new UsageMeter() });
    expect(result.map((a) => a.elementId)).toEqual(['15', '16']);
  });
});

describe('LLM inference: extract', () => {
  it('asks for link ids in URL fields and maps them to the real hrefs', async () => {
    server.script({ json: { title: 'Account', docs: { url: '18' }, pages: [{ name: 'Pricing', link: '2' }] } });
    const result = await llm.extract({
      instruction: 'title, docs link and pages',
      schema: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          docs: { type: 'object', properties: { url: { type: 'string', format: 'uri' } } },
          pages: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, link: { type: 'string' } } } },
        },
        required: ['title'],
      },
      snapshot,
      signal,
      usage: new UsageMeter(),
    });
    expect(result).toEqual({
      title: 'Account',
      docs: { url: 'https://docs.example.com/start' },
      pages: [{ name: 'Pricing', link: 'https://shop.example.com/pricing' }],
    });
    const body = server.requests[0]?.body as { text: { format: { schema: { properties: { docs: { properties: { url: { description: string } } } } } } } };
    expect(body.text.format.schema.properties.docs.properties.url.description).toMatch(/id/);
  });

  it('retries when a URL field does not point at a link', async () => {
    server.script([{ json: { url: 'https://made-up.example/' } }, { json: { url: '22' } }]);
    const result = await llm.extract({
      instruction: 'privacy link',
      schema: { type: 'object', properties: { url: { type: 'string' } } },
      snapshot,
      signal,
      usage: new UsageMeter(),
    });
    expect(result).toEqual({ url: 'https://shop.example.com/privacy' });
    expect(server.requests[1]?.raw).toContain('\\"https://made-up.example/\\" is not the id of a link on the page');
  });

  it('wraps non-object schemas under value and unwraps the answer', async () => {
    server.script({ json: { value: ['Alice', 'Bob'] } });
    const result = await llm.extract({ instruction: 'user names', schema: { type: 'array', items: { type: 'string' } }, snapshot, signal, usage: new UsageMeter() });
    expect(result).toEqual(['Alice', 'Bob']);
  });

  it('answers an instruction alone as {extraction}', async () => {
    server.script({ json: { extraction: 'Two users: Alice and Bob' } });
    expect(await llm.extract({ instruction: 'who are the users?', snapshot, signal, usage: new UsageMeter() })).toEqual({ extraction: 'Two users: Alice and Bob' });
  });

  it('asks for what the schema describes when there is no instruction', async () => {
    server.script({ json: { title: 'Account' } });
    const result = await llm.extract({
      schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      snapshot,
      signal,
      usage: new UsageMeter(),
    });
    expect(result).toEqual({ title: 'Account' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.raw).toContain('Extract: the information described by the schema');
  });
});

describe('createInference', () => {
  it('fails up front, naming the provider, when no key exists', () => {
    expect(() => createInference('anthropic/claude-sonnet-4-5', { env: {} })).toThrow(/No API key for provider "anthropic"/);
  });

  it('uses the session model and key when the call has none', async () => {
    const inference = createInference(undefined, {
      sessionModelName: 'openai/gpt-4.1-mini',
      sessionApiKey: 'sk-session',
      env: {},
    });
    expect(inference.identity).toBe('openai/gpt-4.1-mini');
  });
});

describe('an in-process model object (the client llmClient)', () => {
  const inProcess = (key = 'sk-in-process-key') => createOpenAI({ apiKey: key, baseURL: `${server.url}/v1` }).chat('gpt-4.1-mini');

  it('is the session model for a call that names none, identified by its provider and model id, and every call is observed', async () => {
    const calls: ModelCallRecord[] = [];
    const inference = createInference(undefined, { sessionModelName: 'builtin/offline', env: {}, languageModel: inProcess(), onModelCall: (call) => calls.push(call) });
    expect(inference.identity).toBe('openai.chat/gpt-4.1-mini');
    server.script([
      { json: { elementId: '99', method: 'click', arguments: [], description: 'click sign in' } },
      { json: { elementId: '9', method: 'click', arguments: [], description: 'click sign in' }, usage: { input: 40, output: 6 } },
    ]);
    const usage = new UsageMeter();
    expect(await inference.chooseAction({ instruction: 'sign in', snapshot, variables: [], signal, usage })).toMatchObject({ elementId: '9' });
    expect(server.requests.map((r) => [r.protocol, r.headers.authorization])).toEqual([
      ['openai-chat', 'Bearer sk-in-process-key'],
      ['openai-chat', 'Bearer sk-in-process-key'],
    ]);
    expect(usage.total).toMatchObject({ calls: 2, outputTokens: expect.any(Number) });
    // The retry is a call of its own: both are seen, each once, as sent.
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({
      model: 'openai.chat/gpt-4.1-mini',
      responseFormat: { type: 'json' },
      response: { text: expect.stringContaining('"elementId":"9"'), toolCalls: [], finishReason: 'stop' },
      usage: { inputTokens: 40, outputTokens: 6 },
      durationMs: expect.any(Number),
    });
    expect(calls[0]!.prompt[0]).toMatchObject({ role: 'system' });
    expect(JSON.stringify(calls[1]!.prompt)).toContain('element id \\"99\\" is not in the page outline');
    expect(JSON.stringify(calls)).not.toContain('sk-in-process-key');
  });

  it('a call that names its own model still uses that one', () => {
    const inference = createInference({ modelName: 'openai/gpt-4.1-mini', baseURL: `${server.url}/v1` }, { env: { OPENAI_API_KEY: 'sk-env-key' }, languageModel: inProcess() });
    expect(inference.identity).toBe(`openai/gpt-4.1-mini@${server.url}/v1`);
  });

  it('observes tool steps with the tools by name, and failed calls with the error', async () => {
    const calls: ModelCallRecord[] = [];
    const client = createModelClient(inProcessTarget(inProcess()), { env: {}, onModelCall: (call) => calls.push(call) });
    server.script([{ toolCalls: [{ name: 'goto', args: { url: 'https://example.com/' } }] }, { status: 400, message: 'bad request' }]);
    const request = {
      system: 'You drive a browser.',
      messages: [{ role: 'user' as const, content: 'open example.com' }],
      tools: [{ name: 'goto', description: 'go to a URL', input: z.object({ url: z.string() }) }],
      signal,
      usage: new UsageMeter(),
    };
    expect((await client.toolStep(request)).toolCalls).toEqual([{ id: expect.any(String), name: 'goto', input: { url: 'https://example.com/' } }]);
    await expect(client.toolStep(request)).rejects.toThrow(/HTTP 400/);
    expect(calls[0]).toMatchObject({ tools: ['goto'], response: { toolCalls: [{ name: 'goto', input: { url: 'https://example.com/' } }], finishReason: 'tool-calls' } });
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ tools: ['goto'], error: expect.stringMatching(/HTTP 400/) });
    expect(calls[1]).not.toHaveProperty('response');
  });

  it('asks for JSON in the prompt when the model takes no JSON Schema response format; Chat Completions tool results carry no images', () => {
    const chat = inProcessModel({ ...inProcess(), provider: 'ollama.chat', supportsStructuredOutputs: false } as never);
    expect(chat).toMatchObject({ nativeStructuredOutput: false, imagesInToolResults: false, secrets: [] });
    const responses = createOpenAI({ apiKey: 'k', baseURL: `${server.url}/v1` }).responses('gpt-4.1-mini');
    expect(inProcessModel(responses)).toMatchObject({ nativeStructuredOutput: true, imagesInToolResults: true });
  });
});
