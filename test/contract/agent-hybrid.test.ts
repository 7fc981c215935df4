// agentExecute in hybrid mode: the dom tools plus coordinate tools for vision models. The loopback
// model server scripts coordinate calls in each wire format; the tests assert what happened in the
// page at those CSS pixels (a fixture that logs where each click, drag, wheel and key landed), that
// screenshots reach the model as images in each format's own image shape, that a point off the
// viewport is a failed step the model hears about, and that no variable value is ever sent.
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imagesIn, startModelServer, type ModelServer } from '../support/model-server';
import { expectError, expectOk, useContract } from '../support/contract';
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
const SECRET = 'hybrid-secret-7731';
const KEY = 'sk-hybrid-key-never-echo-5151';

type AgentResult = {
  success: boolean;
  message: string;
  actions: Array<Record<string, any>>;
  metadata: { stopReason: string; steps: number };
  usage: Record<string, number>;
};

const formats: Array<[string, () => Record<string, unknown>]> = [
  ['OpenAI Responses', () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: KEY, baseURL: `${model.url}/v1` })],
  ['OpenAI Chat Completions', () => ({ modelName: 'openai/gpt-4o', apiKey: KEY, baseURL: `${model.url}/v1`, openaiEndpointFormat: 'chat' })],
  ['Anthropic Messages', () => ({ modelName: 'anthropic/claude-sonnet-4-5', apiKey: KEY, baseURL: `${model.url}/v1` })],
  ['Google generateContent', () => ({ modelName: 'google/gemini-2.5-flash', apiKey: KEY, baseURL: `${model.url}/v1beta` })],
];

async function agent(id: string, body: Record<string, unknown>) {
  const reply = await ctx.api.call('agentExecute', { id, body, headers: json });
  expectOk(reply);
  return reply.body.data.result as AgentResult;
}

const call = (name: string, args: unknown) => ({ toolCalls: [{ name, args }], usage: { input: 100, output: 10 } });

describe('agentExecute in hybrid mode', () => {
  it('runs coordinate calls at those CSS pixels of the viewport: click (each button), double click, drag, type at the focus, keys, wheel, hover', async () => {
    const id = await ctx.sessionOn('coordinates.html');
    model.script([
      call('click', { x: 100, y: 50 }),
      call('click', { x: 120, y: 60, button: 'right' }),
      call('doubleClick', { x: 300, y: 150 }),
      call('drag', { path: [{ x: 20, y: 20 }, { x: 200, y: 100 }, { x: 350, y: 180 }] }),
      call('click', { x: 500, y: 35 }),
      call('type', { text: '%pin%' }),
      call('keypress', { keys: ['CTRL', 'b'] }),
      call('click', { x: 500, y: 120 }),
      call('scrollAt', { x: 100, y: 100, dy: 300 }),
      call('hover', { x: 650, y: 120 }),
      call('done', { success: true, message: 'Did it all' }),
    ]);
    const result = await agent(id, {
      agentConfig: { model: formats[0]![1](), mode: 'hybrid' },
      executeOptions: { instruction: 'Work the pad', variables: { pin: { value: SECRET, description: 'the pin' } } },
    });
    expect(result, result.message).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 11 } });
    expect(result.actions.map((a) => [a.type, a.success])).toEqual([
      ['click', true], ['click', true], ['doubleClick', true], ['drag', true], ['click', true], ['type', true],
      ['keypress', true], ['click', true], ['scrollAt', true], ['hover', true], ['done', true],
    ]);
    expect(result.usage).toMatchObject({ input_tokens: 1100, output_tokens: 110 });
    const log = (await pageText(ctx.api, id, '#log')).split('\n').map((l) => l.trim()).filter(Boolean);
    expect(log).toEqual([
      'click 100,50 left',
      'click 120,60 right',
      'click 300,150 left',
      'click 300,150 left',
      'dblclick 300,150',
      'drag 20,20 -> 350,180',
      // Pressed and released on the same element: the browser calls that a click too.
      'click 350,180 left',
      'shortcut Control+b',
      `clicked: OK, field ${SECRET.length} chars`,
      'wheel 100,100 0,300',
      'hovered: menu',
    ]);
    const first = model.requests[0]!.raw;
    for (const tool of ['click', 'doubleClick', 'type', 'drag', 'scrollAt', 'hover', 'keypress', 'act', 'observe', 'screenshot', 'done']) expect(first).toContain(`"${tool}"`);
    for (const request of model.requests) expect(request.raw).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(ctx.server.logs.join('\n')).not.toContain(SECRET);
  });

  for (const [format, llm] of formats) {
    it(`${format}: a screenshot reaches the model as an image in the format's own shape, never as base64 text`, async () => {
      const id = await ctx.sessionOn('coordinates.html');
      model.script([call('screenshot', {}), call('click', { x: 100, y: 50 }), call('done', { success: true, message: 'Clicked the pad' })]);
      const result = await agent(id, { agentConfig: { model: llm(), mode: 'hybrid' }, executeOptions: { instruction: 'Look, then click the pad' } });
      expect(result, result.message).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 3 } });
      expect(await pageText(ctx.api, id, '#log')).toContain('click 100,50 left');
      const second = model.requests[1]!;
      const images = imagesIn(second);
      expect(images).toHaveLength(1);
      expect(images[0]).toMatchObject({ mediaType: 'image/png', data: expect.stringMatching(/^iVBOR/) });
      // Chat Completions reads no image in a tool message: it follows in a user message instead. Gemini
      // before 3 takes a function response's image as a part beside it in the same turn.
      expect(images[0]!.in).toBe(format === 'OpenAI Chat Completions' || format === 'Google generateContent' ? 'user' : 'tool');
      // The base64 is there once, as the image, and nowhere as text.
      expect(second.raw.split(images[0]!.data.slice(0, 200)).length - 1).toBe(1);
    });
  }

  it('a point off the viewport is a failed step the model hears about, with the bounds; the run goes on', async () => {
    const id = await ctx.sessionOn('coordinates.html');
    model.script([
      call('click', { x: 5000, y: 50 }),
      call('drag', { path: [{ x: 10, y: 10 }, { x: -1, y: 10 }] }),
      call('click', { x: 100, y: 50 }),
      call('done', { success: true, message: 'Clicked after correcting' }),
    ]);
    const result = await agent(id, { agentConfig: { model: formats[2]![1](), mode: 'hybrid' }, executeOptions: { instruction: 'Click the pad' } });
    expect(result, result.message).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 4 } });
    expect(result.actions.map((a) => [a.type, a.success])).toEqual([['click', false], ['drag', false], ['click', true], ['done', true]]);
    expect(result.actions[0]!.error).toMatch(/\(5000, 50\) is outside the viewport: x must be 0–\d+ and y 0–\d+/);
    expect(model.requests[1]!.raw).toMatch(/outside the viewport/);
    expect(model.requests[2]!.raw).toMatch(/\(-1, 10\) is outside the viewport/);
    // Nothing landed in the page for the refused calls.
    expect((await pageText(ctx.api, id, '#log')).trim()).toBe('click 100,50 left');
  });

  it('shouldCache: a run that clicked by coordinates is no cache entry (a replay would skip the click); one with dom tools only is', async () => {
    const id = await ctx.sessionOn('coordinates.html');
    const run = async () => {
      const reply = await ctx.api.call('agentExecute', {
        id,
        body: { agentConfig: { model: formats[2]![1](), mode: 'hybrid' }, executeOptions: { instruction: 'Click the pad' }, shouldCache: true },
        // With the server's cache in use: a bypassed run gets no entry at all.
        headers: { 'x-stream-response': 'false' },
      });
      expectOk(reply);
      return reply.body.data as { result: AgentResult; cacheEntry?: unknown };
    };
    model.script([call('click', { x: 100, y: 50 }), call('done', { success: true, message: 'Clicked' })]);
    const clicked = await run();
    expect(clicked.result).toMatchObject({ success: true, metadata: { stopReason: 'done' } });
    expect(clicked.cacheEntry).toBeUndefined();
    model.script([call('wait', { ms: 10 }), call('done', { success: true, message: 'Waited' })]);
    const waited = await run();
    expect(waited.result).toMatchObject({ success: true, metadata: { stopReason: 'done' } });
    expect(waited.cacheEntry).toMatchObject({ entry: { mode: 'hybrid', steps: [{ tool: 'wait' }] } });
  });

  it('the dom mode has no coordinate tools; the offline model has no vision: hybrid with it is 422 before anything runs', async () => {
    const id = await ctx.sessionOn('coordinates.html');
    model.script([call('done', { success: true, message: 'Nothing to do' })]);
    await agent(id, { agentConfig: { model: formats[0]![1]() }, executeOptions: { instruction: 'Look' } });
    const tools = (model.requests[0]!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools).toContain('act');
    expect(tools).not.toContain('click');
    const body = expectError(
      await ctx.api.call('agentExecute', { id, body: { agentConfig: { model: 'builtin/offline', mode: 'hybrid' }, executeOptions: { instruction: 'click the pad' } }, headers: json }),
      422,
      'unprocessable',
    );
    expect(body.message).toMatch(/no vision/);
  });

  it('highlightCursor shows the cursor at the coordinates the model clicked, seen over CDP while the run goes on', async () => {
    const id = await ctx.sessionOn('coordinates.html');
    model.script([call('click', { x: 333, y: 111 }), { hang: true }]);
    const gone = new AbortController();
    const running = fetch(`${ctx.server.url}/v1/sessions/${id}/agentExecute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...json },
      body: JSON.stringify({ agentConfig: { model: formats[0]![1](), mode: 'hybrid' }, executeOptions: { instruction: 'Click the pad', highlightCursor: true } }),
      signal: gone.signal,
    }).catch(() => undefined);
    const record = await ctx.api.call('getBrowserSession', { id });
    const browser = await chromium.connectOverCDP(record.body.connectUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      const cursor = () =>
        page.evaluate(() => {
          const dot = document.getElementById('__deckhand_cursor');
          return dot ? `${dot.style.left},${dot.style.top}` : null;
        });
      // While the model is asked its second turn, the cursor sits exactly where the click landed.
      await expect.poll(() => model.requests.length, { timeout: 10_000 }).toBe(2);
      await expect.poll(cursor).toBe('333px,111px');
    } finally {
      gone.abort();
      await running;
      await browser.close().catch(() => {});
    }
    await expect.poll(() => model.requests[1]?.abandoned).toBe(true);
    expect((await pageText(ctx.api, id, '#log')).trim()).toBe('click 333,111 left');
  });
});
