// The Deckhand class in API mode (env BROWSERBASE, useAPI true) against a real server, fixture pages
// and the loopback model server: options checked at construction, init, every method, metrics, the
// CDP URL for Playwright, logging by verbosity, the inference file with secrets masked, close.
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogLine } from '@deckhand/contract';
import { Deckhand, DeckhandApiError, DeckhandOptionsError, type DeckhandOptions } from '@deckhand/client';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server';
import { startModelServer, type ModelServer } from '../../../test/support/model-server';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { closedPortUrl } from '../../../test/support/closed-port';

let server: TestServer;
let fixtures: FixtureServer;
let model: ModelServer;
const KEY = 'deckhand-client-key';

beforeAll(async () => {
  fixtures = await startFixtureServer();
  model = await startModelServer();
  server = await startTestServer({ DECKHAND_API_KEYS: `${KEY}:client-project`, ...ALLOW_FIXTURES });
});

afterAll(async () => {
  await server?.close();
  await model?.close();
  await fixtures?.close();
});

/** An AI SDK model on the loopback model server, as a user would pass it as llmClient. */
const llm = (key = 'sk-llm-client-key') => createOpenAI({ apiKey: key, baseURL: `${model.url}/v1` }).chat('gpt-4.1-mini');

/** The outline id the model would have to name for `line` (e.g. 'button "Go"'), read from what it was shown. */
function outlineId(raw: string, line: string): string {
  const match = new RegExp(`\\[(\\d+)\\] ${line.replace(/"/g, '\\\\"')}`).exec(raw);
  if (!match) throw new Error(`no ${line} in the outline`);
  return match[1]!;
}

const remote = (extra: Partial<DeckhandOptions> = {}) =>
  new Deckhand({ env: 'BROWSERBASE', apiKey: KEY, baseURL: server.url, verbose: 0, localBrowserLaunchOptions: { headless: true }, ...extra });

/** Runs `body` with env variables set (and removed again), for the fallbacks read at construction. */
function withEnv<T>(vars: Record<string, string | undefined>, body: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return body();
  } finally {
    apply(saved);
  }
}

describe('options', () => {
  const noKeyEnv = { DECKHAND_API_KEY: undefined, BROWSERBASE_API_KEY: undefined };

  it('rejects wrong options at construction, naming the option', () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'env'],
      [{ env: 'CLOUD', apiKey: KEY }, 'env'],
      [{ env: 'BROWSERBASE', apiKey: '…' }, 'apiKey'],
      [{ env: 'BROWSERBASE', modelClientOptions: { apiKey: 'sk-…' } }, 'modelClientOptions.apiKey'],
      [{ env: 'BROWSERBASE', baseUrl: 'http://127.0.0.1:3000' }, 'baseUrl'],
      [{ env: 'BROWSERBASE', model: 'openai/gpt-4.1-mini' }, 'model'],
      [{ env: 'BROWSERBASE', colour: 'blue' }, 'colour'],
      [{ env: 'BROWSERBASE', apiKey: KEY, llmClient: {}, modelName: 'openai/gpt-4o' }, 'llmClient'],
      [{ env: 'BROWSERBASE', apiKey: KEY, llmClient: {} }, 'llmClient'],
      [{ env: 'BROWSERBASE', apiKey: KEY, verbose: 3 }, 'verbose'],
      [{ env: 'BROWSERBASE', apiKey: KEY, logger: 'stderr' }, 'logger'],
      [{ env: 'BROWSERBASE', apiKey: KEY, domSettleTimeoutMs: -1 }, 'domSettleTimeoutMs'],
      [{ env: 'BROWSERBASE', apiKey: KEY, baseURL: 'not a url' }, 'baseURL'],
      [{ env: 'BROWSERBASE', apiKey: KEY, modelClientOptions: { baseURL: 'ftp://x' } }, 'modelClientOptions.baseURL'],
      [{ env: 'LOCAL', useAPI: true }, 'useAPI'],
      [{ env: 'LOCAL', llmClient: {} }, 'llmClient'],
      [{ env: 'LOCAL', waitForCaptchaSolves: true }, 'waitForCaptchaSolves'],
      [{ env: 'LOCAL', browserbaseSessionID: 'abc' }, 'browserbaseSessionID'],
      [{ env: 'LOCAL', modelClientOptions: { temperature: -1 } }, 'modelClientOptions.temperature'],
      [{ env: 'LOCAL', modelClientOptions: { maxTokens: 1.5 } }, 'modelClientOptions.maxTokens'],
      [{ env: 'LOCAL', cacheDir: '' }, 'cacheDir'],
      [{ env: 'BROWSERBASE', apiKey: KEY, llmClient: llm() }, 'llmClient'],
      [{ env: 'BROWSERBASE', apiKey: KEY, useAPI: true, llmClient: llm() }, 'llmClient'],
      [{ env: 'LOCAL', llmClient: llm(), modelName: 'openai/gpt-4.1-mini' }, 'llmClient'],
      [{ env: 'LOCAL', llmClient: 'openai/gpt-4.1-mini' }, 'llmClient'],
      [{ env: 'LOCAL', llmClient: llm(), modelClientOptions: { baseURL: 'http://127.0.0.1:1/v1' } }, 'modelClientOptions.baseURL'],
    ];
    withEnv(noKeyEnv, () => {
      for (const [options, option] of cases) {
        let thrown: unknown;
        try {
          new Deckhand(options as DeckhandOptions);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, JSON.stringify(options)).toBeInstanceOf(DeckhandOptionsError);
        expect((thrown as DeckhandOptionsError).option, JSON.stringify(options)).toBe(option);
        expect((thrown as Error).message.startsWith(`${option}: `)).toBe(true);
      }
    });
  });

  it('names the option a misspelled one meant, instead of ignoring it', () => {
    const suggestion = (options: Record<string, unknown>) => {
      try {
        new Deckhand({ env: 'BROWSERBASE', ...options } as DeckhandOptions);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(suggestion({ baseUrl: 'http://127.0.0.1:3000' })).toBe('baseUrl: not an option of Deckhand; did you mean baseURL?');
    expect(suggestion({ apikey: KEY })).toBe('apikey: not an option of Deckhand; did you mean apiKey?');
    expect(suggestion({ domSettleTimeout: 500 })).toBe('domSettleTimeout: not an option of Deckhand; did you mean domSettleTimeoutMs?');
    expect(suggestion({ enableCache: false })).toBe('enableCache: not an option of Deckhand; did you mean enableCaching?');
    expect(suggestion({ modelApiKey: 'sk-1' })).toBe('modelApiKey: not an option of Deckhand; did you mean modelClientOptions.apiKey?');
    expect(suggestion({ colour: 'blue' })).toMatch(/^colour: not an option of Deckhand \(options: env, apiKey, /);
  });

  it('refuses llmClient through the API at construction: a model object cannot be sent to a server', () => {
    expect(() => new Deckhand({ env: 'BROWSERBASE', apiKey: KEY, llmClient: llm() })).toThrow(/^llmClient: .*useAPI: false/);
  });

  it('applies the TypeScript defaults and accepts options the server has no counterpart for', () => {
    const client = new Deckhand({ env: 'BROWSERBASE', apiKey: KEY, llmProvider: { any: 'thing' }, disablePino: true });
    expect(client.options).toMatchObject({
      enableCaching: true,
      domSettleTimeoutMs: 10_000,
      verbose: 1,
      useAPI: true,
      streaming: true,
      experimental: false,
      waitForCaptchaSolves: false,
      logInferenceToFile: false,
      disablePino: true,
      modelName: 'builtin/offline',
    });
  });

  it('finds the server and the key in the environment; a Stagehand-style URL ending in /v1 works', async () => {
    const client = withEnv({ DECKHAND_API_URL: undefined, STAGEHAND_API_URL: `${server.url}/v1`, DECKHAND_API_KEY: KEY }, () =>
      new Deckhand({ env: 'BROWSERBASE', verbose: 0, localBrowserLaunchOptions: { headless: true } }),
    );
    const { sessionId } = await client.init();
    expect(sessionId).toEqual(expect.any(String));
    await client.close();
  });
});

describe('a first-time user on the default keyless server', () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer(ALLOW_FIXTURES);
  });
  afterAll(() => open?.close());

  it("runs the README's constructor as written, with no key set anywhere", async () => {
    const client = withEnv({ DECKHAND_API_KEY: undefined, BROWSERBASE_API_KEY: undefined, DECKHAND_API_URL: open.url }, () =>
      // The README's line: `apiKey: process.env.DECKHAND_API_KEY`, here unset.
      new Deckhand({ env: 'BROWSERBASE', apiKey: process.env.DECKHAND_API_KEY, verbose: 0 }),
    );
    await client.init();
    try {
      await client.goto(`${open.url}/demo`);
      expect(await client.act('type "Ada" into the Name field')).toMatchObject({ success: true });
      expect(await client.act('click the Say hello button')).toMatchObject({ success: true });
      expect(await client.extract(undefined, undefined, { selector: '#greeting' })).toEqual({ pageText: 'Hello, Ada!' });
    } finally {
      await client.close();
    }
  });

  it('a server with keys answers a keyless client with a clear 401', async () => {
    const client = withEnv({ DECKHAND_API_KEY: undefined, BROWSERBASE_API_KEY: undefined }, () => new Deckhand({ env: 'BROWSERBASE', baseURL: server.url, verbose: 0 }));
    await expect(client.init()).rejects.toMatchObject({ status: 401, code: 'unauthorized', message: expect.stringMatching(/API key/) });
  });

  it("masks a short placeholder key only where it stands alone: apiKey 'x' leaves \"vertex\" and \"prefixed\" whole", async () => {
    const lines: string[] = [];
    const client = new Deckhand({ env: 'BROWSERBASE', apiKey: 'x', baseURL: open.url, verbose: 2, logger: (line) => lines.push(line.message) });
    await client.init();
    try {
      const failed = await client.goto(`${await closedPortUrl()}vertex-prefixed`).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(DeckhandApiError);
    } finally {
      await client.close();
    }
    const failure = lines.find((line) => line.startsWith('navigate failed'));
    expect(failure).toContain('vertex-prefixed');
    expect(lines.join('\n')).not.toContain('••••');
  });
});

describe('API mode', () => {
  it('init, goto, act, observe, extract, metrics and close, streaming by default', async () => {
    const lines: LogLine[] = [];
    const client = remote({ verbose: 1, logger: (line) => lines.push(line) });
    const init = await client.init();
    expect(init).toEqual({ sessionId: expect.any(String), sessionUrl: expect.any(String), debugUrl: expect.any(String) });
    expect(client.sessionId).toBe(init.sessionId);
    expect(init.sessionUrl).toMatch(new RegExp(`^${server.url}/v1/sessions/${init.sessionId}/live\\?token=`));
    expect(init.debugUrl).toMatch(new RegExp(`^${server.url}/v1/sessions/${init.sessionId}/devtools\\?token=`));
    expect((await fetch(init.sessionUrl)).status).toBe(200);

    const navigated = await client.goto(fixtures.url('forms.html'));
    expect(navigated?.response.status).toBe(200);
    // log lines arrive only on a stream: their presence shows streaming is the default
    expect(lines.some((line) => line.message.includes('navigated'))).toBe(true);

    expect((await client.act('click the Go button')).success).toBe(true);
    expect((await client.act({ selector: '#name', method: 'fill', arguments: ['Ada'], description: 'Name' })).success).toBe(true);
    const observed = await client.observe('click Submit');
    expect(observed[0]).toMatchObject({ method: 'click' });
    expect(await client.extract(undefined, undefined, { selector: '#log' })).toEqual({ pageText: 'clicked: go' });

    const metrics = await client.metrics;
    expect(metrics.operations.map((op) => op.method)).toEqual(['navigate', 'act', 'act', 'observe', 'extract']);
    expect(metrics.operations.every((op) => typeof op.durationMs === 'number')).toBe(true);

    await client.close();
    await client.close();
    expect(() => client.sessionId).toThrow(/closed/);
    const replay = await fetch(`${server.url}/v1/sessions/${init.sessionId}/replay`, { headers: { 'x-bb-api-key': KEY } });
    expect(replay.status).toBe(410);
  });

  it('sums model tokens per method from the modelClientOptions model, its key sent as x-model-api-key; temperature and maxTokens stay here', async () => {
    const client = remote({ modelName: 'openai/gpt-4.1-mini', modelClientOptions: { apiKey: 'sk-client-model-key', baseURL: `${model.url}/v1`, temperature: 0.25, maxTokens: 77 } });
    await client.init();
    await client.goto(fixtures.url('forms.html'));
    model.script({ json: { extraction: 'Sign up' }, usage: { input: 11, output: 7 } });
    expect(await client.extract('the heading')).toEqual({ extraction: 'Sign up' });
    expect(model.requests.at(-1)!.headers.authorization).toBe('Bearer sk-client-model-key');
    // The API has no place for them: the server's call uses the provider's defaults.
    expect(model.requests.at(-1)!.body).not.toHaveProperty('temperature');
    expect(model.requests.at(-1)!.body).not.toHaveProperty('max_output_tokens');
    const metrics = await client.metrics;
    expect(metrics).toMatchObject({ extractPromptTokens: 11, extractCompletionTokens: 7, totalPromptTokens: 11, actPromptTokens: 0 });
    await client.close();
  });

  it('hands Playwright a CDP URL on the same page', async () => {
    const client = remote();
    await client.init();
    await client.goto(fixtures.url('forms.html'));
    const browser = await chromium.connectOverCDP(client.cdpUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      expect(await page.title()).toBe('Forms');
    } finally {
      await browser.close();
    }
    await client.close();
  });

  it('resumes an existing session by browserbaseSessionID', async () => {
    const first = remote();
    const { sessionId } = await first.init();
    await first.goto(fixtures.url('forms.html'));
    const second = remote({ browserbaseSessionID: sessionId });
    const resumed = await second.init();
    expect(resumed.sessionId).toBe(sessionId);
    expect((await fetch(resumed.sessionUrl)).status).toBe(200);
    expect((await fetch(resumed.debugUrl, { redirect: 'manual' })).status).toBe(302);
    expect(await second.extract(undefined, undefined, { selector: 'h1' })).toEqual({ pageText: 'Sign up' });
    await second.close();
    await expect(remote({ browserbaseSessionID: 'no-such-session' }).init()).rejects.toMatchObject({ status: 404 });
  });

  it("surfaces the server's errors as DeckhandApiError, agent(...).execute included", async () => {
    const client = remote();
    await client.init();
    // This server has no computer-use tools: the agent refuses cua before anything runs.
    const agent = await client.agent({ mode: 'cua' }).execute('find the sign up form').catch((error: unknown) => error);
    expect(agent).toBeInstanceOf(DeckhandApiError);
    expect(agent).toMatchObject({ status: 422, code: 'unprocessable' });
    await client.close();
    await expect(new Deckhand({ env: 'BROWSERBASE', apiKey: 'wrong-key', baseURL: server.url, verbose: 0 }).init()).rejects.toMatchObject({ status: 401 });
  });
});

describe('logging', () => {
  it('verbose 0 passes errors only; 2 passes debug lines; no line carries a secret', async () => {
    const quiet: LogLine[] = [];
    const client = remote({ verbose: 0, logger: (line) => quiet.push(line) });
    await client.init();
    await client.goto(fixtures.url('forms.html'));
    await client.act('type %pw% into Password', { variables: { pw: { value: 'hunter2-secret', description: 'the password' } } });
    expect(quiet).toEqual([]);
    await client.goto('http://127.0.0.1:1/').catch(() => undefined);
    expect(quiet.length).toBeGreaterThan(0);
    expect(quiet.every((line) => line.level === 0)).toBe(true);
    await client.close();

    const chatty: LogLine[] = [];
    const verbose = remote({ verbose: 2, logger: (line) => chatty.push(line) });
    await verbose.init();
    await verbose.goto(fixtures.url('forms.html'));
    await verbose.act('type %pw% into Password', { variables: { pw: { value: 'hunter2-secret', description: 'the password' } } });
    expect(chatty.some((line) => line.level === 2)).toBe(true);
    expect(JSON.stringify([quiet, chatty])).not.toMatch(/hunter2-secret|deckhand-client-key/);
    await verbose.close();
  });

  it('logInferenceToFile writes each operation, with variable values and keys masked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deckhand-inference-'));
    const client = remote({ logInferenceToFile: true, inferenceLogDir: dir, modelClientOptions: { apiKey: 'sk-never-in-file' } });
    const { sessionId } = await client.init();
    await client.goto(fixtures.url('forms.html'));
    // A quote and a backslash: JSON escapes them, so the value's JSON text differs from the value.
    await client.act('type %pw% into Password', { variables: { pw: { value: 'hunter2-"secret\\', description: 'the password' } } });
    await client.close();
    expect(await readdir(dir)).toEqual([`${sessionId}.jsonl`]);
    const text = await readFile(join(dir, `${sessionId}.jsonl`), 'utf8');
    const records = text.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.method)).toEqual(['navigate', 'act']);
    expect(records[1].request.options.variables.pw.value).toBe('••••');
    expect(text).not.toMatch(/hunter2-|sk-never-in-file|deckhand-client-key/);
  });
});

describe('one scenario, every mode built so far', () => {
  const modes: Array<[string, () => Deckhand]> = [
    ['BROWSERBASE with useAPI', () => remote()],
    ['BROWSERBASE without useAPI', () => remote({ useAPI: false })],
    ['LOCAL', () => new Deckhand({ env: 'LOCAL', verbose: 0, enableCaching: false, localBrowserLaunchOptions: { headless: true } })],
  ];

  for (const [name, make] of modes) {
    it(`runs the same calls with the same answers: ${name}`, async () => {
      const client = make();
      const { sessionId } = await client.init();
      expect(client.sessionId).toBe(sessionId);
      expect((await client.goto(fixtures.url('forms.html')))?.response.status).toBe(200);
      expect((await client.act('click the Go button')).success).toBe(true);
      expect((await client.act('type %pw% into Password', { variables: { pw: { value: 'hunter2-secret', description: 'the password' } } })).success).toBe(true);
      expect((await client.observe('click Submit'))[0]).toMatchObject({ method: 'click' });
      expect(await client.extract(undefined, undefined, { selector: '#log' })).toEqual({ pageText: 'clicked: go' });
      const metrics = await client.metrics;
      expect(metrics.operations.map((op) => op.method)).toEqual(['navigate', 'act', 'act', 'observe', 'extract']);
      expect(JSON.stringify(metrics)).not.toContain('hunter2-secret');
      const agent = await client.agent().execute('click the Go button, then click Submit');
      expect(agent).toMatchObject({ success: true, completed: true, metadata: { stopReason: 'done', steps: 2 } });
      expect(await client.extract(undefined, undefined, { selector: '#result' })).toEqual({ pageText: expect.stringMatching(/^submitted: /) });
      await client.close();
      expect(() => client.sessionId).toThrow(/closed/);
    });
  }

  it('useAPI false: the server starts the browser, the operations and the model calls run here, the model key stays here', async () => {
    const client = remote({ useAPI: false, modelName: 'openai/gpt-4.1-mini', modelClientOptions: { apiKey: 'sk-stays-in-client', baseURL: `${model.url}/v1`, temperature: 0.25, maxTokens: 77 } });
    const { sessionId, sessionUrl } = await client.init();
    expect((await fetch(sessionUrl)).status).toBe(200);
    await client.goto(fixtures.url('forms.html'));
    model.script({ json: { extraction: 'Sign up' }, usage: { input: 5, output: 3 } });
    expect(await client.extract('the heading')).toEqual({ extraction: 'Sign up' });
    expect(model.requests.at(-1)!.headers.authorization).toBe('Bearer sk-stays-in-client');
    expect(model.requests.at(-1)!.body).toMatchObject({ temperature: 0.25, max_output_tokens: 77 });
    expect(await client.metrics).toMatchObject({ extractPromptTokens: 5, extractCompletionTokens: 3 });
    // The server drove nothing itself (its record is empty) and never saw the model key.
    const replay = await fetch(`${server.url}/v1/sessions/${sessionId}/replay`, { headers: { 'x-bb-api-key': KEY } });
    expect((await replay.json()).data.pages.flatMap((p: { actions: unknown[] }) => p.actions)).toEqual([]);
    expect(server.logs.join('\n')).not.toContain('sk-stays-in-client');
    await client.close();
    expect((await fetch(`${server.url}/v1/sessions/${sessionId}/replay`, { headers: { 'x-bb-api-key': KEY } })).status).toBe(410);
  });

  it('LOCAL has no server, so no live page or DevTools link; Playwright gets the local browser on a private unix socket', async () => {
    const client = new Deckhand({ env: 'LOCAL', verbose: 0, enableCaching: false });
    expect(await client.init()).toEqual({ sessionId: expect.any(String), sessionUrl: '', debugUrl: '' });
    expect(client.cdpUrl).toMatch(/^ws\+unix:\/\/\/.+:\/devtools\/browser\/[0-9a-f-]+$/);
    await client.goto(fixtures.url('forms.html'));
    const browser = await chromium.connectOverCDP(client.cdpUrl);
    try {
      expect(await browser.contexts()[0]!.pages()[0]!.title()).toBe('Forms');
    } finally {
      await browser.close();
    }
    await client.close();
  });

  it('LOCAL honours temperature and maxTokens in its model calls', async () => {
    const client = new Deckhand({
      env: 'LOCAL',
      verbose: 0,
      enableCaching: false,
      modelName: 'openai/gpt-4.1-mini',
      modelClientOptions: { apiKey: 'sk-local', baseURL: `${model.url}/v1`, temperature: 0, maxTokens: 5 },
    });
    await client.init();
    await client.goto(fixtures.url('forms.html'));
    model.script({ json: { extraction: 'Sign up' } });
    expect(await client.extract('the heading')).toEqual({ extraction: 'Sign up' });
    expect(model.requests.at(-1)!.body).toMatchObject({ temperature: 0, max_output_tokens: 5 });
    await client.close();
  });
});

describe('llmClient: an AI SDK model called from this process', () => {
  it('LOCAL: it answers act and the agent (and the act inside it); usage shows in metrics; a call naming a model uses that one', async () => {
    const client = new Deckhand({ env: 'LOCAL', verbose: 0, enableCaching: false, llmClient: llm(), modelClientOptions: { apiKey: 'sk-per-call' } });
    await client.init();
    await client.goto(fixtures.url('forms.html'));
    const first = model.requests.length;
    model.script({ json: { elementId: null, reason: 'probe' }, usage: { input: 10, output: 2 } });
    expect((await client.act('click the Go button')).success).toBe(false);
    const outline = model.requests.at(-1)!.raw;
    model.script({ json: { elementId: outlineId(outline, 'button "Go"'), method: 'click', arguments: [], description: 'click the Go button' }, usage: { input: 30, output: 8 } });
    expect((await client.act('click the Go button')).success).toBe(true);
    expect(await client.extract(undefined, undefined, { selector: '#log' })).toEqual({ pageText: 'clicked: go' });
    const acts = model.requests.slice(first);
    expect(acts.map((r) => [r.protocol, r.path, r.headers.authorization, (r.body as { model: string }).model])).toEqual([
      ['openai-chat', '/v1/chat/completions', 'Bearer sk-llm-client-key', 'gpt-4.1-mini'],
      ['openai-chat', '/v1/chat/completions', 'Bearer sk-llm-client-key', 'gpt-4.1-mini'],
    ]);
    expect(acts[1]!.raw).toContain('click the Go button');
    expect(await client.metrics).toMatchObject({ actPromptTokens: 40, actCompletionTokens: 10 });

    // The agent's turns and the act it asks for are the same model's.
    model.script([
      { toolCalls: [{ name: 'act', args: { action: 'click Submit' } }] },
      { json: { elementId: outlineId(outline, 'button "Submit"'), method: 'click', arguments: [], description: 'click Submit' } },
      { toolCalls: [{ name: 'done', args: { success: true, message: 'submitted' } }], usage: { input: 50, output: 5 } },
    ]);
    const agent = await client.agent().execute('submit the form');
    expect(agent).toMatchObject({ success: true, completed: true, message: 'submitted' });
    expect(await client.extract(undefined, undefined, { selector: '#result' })).toEqual({ pageText: expect.stringMatching(/^submitted: /) });
    const agentRequests = model.requests.slice(first + 2);
    expect(agentRequests).toHaveLength(3);
    expect(agentRequests.every((r) => r.headers.authorization === 'Bearer sk-llm-client-key')).toBe(true);
    expect((await client.metrics).agentPromptTokens).toBeGreaterThanOrEqual(50);
    // It has no computer use (its provider's native tool is not known from an object): cua is refused before anything runs.
    const requests = model.requests.length;
    await expect(client.agent({ mode: 'cua' }).execute('submit the form')).rejects.toMatchObject({ code: 'unprocessable', message: expect.stringContaining('openai.chat/gpt-4.1-mini has no computer use') });
    expect(model.requests.length).toBe(requests);

    // A call that names its own model is answered by that one, with modelClientOptions.apiKey.
    model.script({ json: { extraction: 'Sign up' } });
    expect(await client.extract('the heading', undefined, { model: { modelName: 'openai/gpt-4.1-nano', baseURL: `${model.url}/v1` } })).toEqual({ extraction: 'Sign up' });
    expect(model.requests.at(-1)).toMatchObject({ protocol: 'openai-responses', headers: { authorization: 'Bearer sk-per-call' } });
    await client.close();
  });

  it('useAPI false: the server starts the browser, the llmClient answers here, with temperature and maxTokens', async () => {
    const llmClient = createOpenAI({ apiKey: 'sk-llm-responses', baseURL: `${model.url}/v1` }).responses('gpt-4.1-mini');
    const client = remote({ useAPI: false, llmClient, modelClientOptions: { temperature: 0.25, maxTokens: 77 } });
    const { sessionId } = await client.init();
    await client.goto(fixtures.url('forms.html'));
    model.script({ json: { extraction: 'Sign up' }, usage: { input: 9, output: 4 } });
    expect(await client.extract('the heading')).toEqual({ extraction: 'Sign up' });
    expect(model.requests.at(-1)).toMatchObject({ protocol: 'openai-responses', headers: { authorization: 'Bearer sk-llm-responses' } });
    expect(model.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4.1-mini', temperature: 0.25, max_output_tokens: 77 });
    expect(await client.metrics).toMatchObject({ extractPromptTokens: 9, extractCompletionTokens: 4 });
    expect(server.logs.join('\n')).not.toContain('sk-llm-responses');
    await client.close();
    expect((await fetch(`${server.url}/v1/sessions/${sessionId}/replay`, { headers: { 'x-bb-api-key': KEY } })).status).toBe(410);
  });

  it('logInferenceToFile also writes each model request and answer, variable values and keys masked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deckhand-inference-'));
    const secret = 'ada-"secret\\-4242';
    const client = new Deckhand({ env: 'LOCAL', verbose: 0, enableCaching: false, llmClient: llm('sk-llm-never-in-file'), modelClientOptions: { apiKey: 'sk-model-never-in-file' }, logInferenceToFile: true, inferenceLogDir: dir });
    const { sessionId } = await client.init();
    await client.goto(fixtures.url('forms.html'));
    const variables = { who: { value: secret, description: 'the name to enter' } };
    model.script({ json: { elementId: null, reason: 'probe' } });
    await client.act('type %who% into Name', { variables });
    model.script({ json: { elementId: outlineId(model.requests.at(-1)!.raw, 'textbox "Name"'), method: 'fill', arguments: ['%who%'], description: 'fill the Name field' } });
    expect((await client.act('type %who% into Name', { variables })).success).toBe(true);
    // The field now holds the value, and the page outline the model reads next shows it; the
    // instruction names it outright, and this process sends that to the model as it is.
    model.script({ json: { extraction: 'the name is entered' }, usage: { input: 21, output: 3 } });
    await client.extract(`was ${secret} entered as the name?`);
    expect(model.requests.at(-1)!.raw).toContain('4242');
    await client.close();

    const text = await readFile(join(dir, `${sessionId}.jsonl`), 'utf8');
    const records = text.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => (r.kind === 'operation' ? r.method : r.kind))).toEqual(['navigate', 'modelCall', 'act', 'modelCall', 'act', 'modelCall', 'extract']);
    const [probe, fill, extract] = records.filter((r) => r.kind === 'modelCall');
    expect(probe).toMatchObject({ sessionId, model: 'openai.chat/gpt-4.1-mini', responseFormat: { type: 'json' }, durationMs: expect.any(Number) });
    expect(JSON.stringify(probe.prompt)).toContain('type %who% into Name');
    expect(JSON.stringify(probe.prompt)).toContain('%who%: the name to enter');
    expect(fill.response.text).toContain('%who%');
    expect(extract).toMatchObject({ response: { text: expect.stringContaining('the name is entered') }, usage: { inputTokens: 21, outputTokens: 3 } });
    expect(JSON.stringify(extract.prompt)).toContain('Extract: was •••• entered as the name?');
    expect(text).not.toMatch(/ada-|4242|never-in-file/);
  });
});

describe('enableCaching', () => {
  /**
   * A relay in front of the real server that adds a cacheEntry to agentExecute answers, as a server
   * with the agent cache hands them back (the entry is opaque to the client).
   */
  async function serverWithCacheEntries(cacheKey: string) {
    const relay = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<string, string>;
      const upstream = await fetch(server.url + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      let text = await upstream.text();
      if (req.url!.endsWith('/agentExecute') && upstream.ok) {
        const answer = JSON.parse(text);
        answer.data.cacheEntry = { cacheKey, entry: { steps: [{ click: '#go' }], typed: 'hunter2-secret' } };
        text = JSON.stringify(answer);
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`, close: () => new Promise((resolve) => relay.close(resolve)) };
  }

  it('keeps the agent cache entry a server hands back as <cacheDir>/agent/<cacheKey>.json, secrets masked; not when caching is off', async () => {
    const relay = await serverWithCacheEntries('0f'.repeat(32));
    const cacheDir = await mkdtemp(join(tmpdir(), 'deckhand-client-cache-'));
    const run = async (enableCaching: boolean) => {
      const client = remote({ baseURL: relay.url, streaming: false, enableCaching, cacheDir });
      await client.init();
      await client.goto(fixtures.url('forms.html'));
      await client.agent().execute({ instruction: 'type %pw% into Password', variables: { pw: 'hunter2-secret' } });
      await client.close();
    };
    try {
      await run(false);
      await expect(readdir(join(cacheDir, 'agent'))).rejects.toThrow();
      await run(true);
      expect(await readdir(join(cacheDir, 'agent'))).toEqual([`${'0f'.repeat(32)}.json`]);
      const kept = await readFile(join(cacheDir, 'agent', `${'0f'.repeat(32)}.json`), 'utf8');
      expect(JSON.parse(kept)).toEqual({ steps: [{ click: '#go' }], typed: '••••' });
    } finally {
      await relay.close();
    }
  });

  it('writes no file for a key that is not a file name', async () => {
    const relay = await serverWithCacheEntries('../../escape');
    const cacheDir = await mkdtemp(join(tmpdir(), 'deckhand-client-cache-'));
    try {
      const client = remote({ baseURL: relay.url, streaming: false, cacheDir });
      await client.init();
      await client.goto(fixtures.url('forms.html'));
      await client.agent().execute('click the Go button');
      await client.close();
      expect(await readdir(cacheDir)).toEqual([]);
    } finally {
      await relay.close();
    }
  });
});
