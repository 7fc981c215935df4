// agentExecute in cua mode: the provider's own computer-use tool. The loopback model server scripts
// computer calls in each provider's real wire format (OpenAI Responses computer_call items, Anthropic
// tool_use of the computer tool, Gemini function calls of the computer-use tool); the tests assert
// what happened in the page at those coordinates, what the model was sent (its tool, each answer as
// a screenshot image, variables by name only), the usage sums, the refusal of a call the provider
// wants confirmed, and the 422 for a model without computer use.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imagesIn, startModelServer, type ModelServer, type ScriptedReply } from '../support/model-server';
import { expectError, expectOk, finishedOf, START_BODY, useContract } from '../support/contract';
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
const SECRET = 'cua-secret-2468';
const KEY = 'sk-cua-key-never-echo-1357';
/** A viewport of 1000 × 500, so Gemini's 0–999 grid is x in pixels and y in half-pixels. */
const VIEWPORT = { width: 1000, height: 500 };

type AgentResult = {
  success: boolean;
  completed: boolean;
  message: string;
  actions: Array<Record<string, any>>;
  metadata: { stopReason: string; steps: number };
  usage: Record<string, number>;
};

const step = (computer: Array<Record<string, unknown>>): ScriptedReply => ({ computer, usage: { input: 100, output: 10 } });
const finish: ScriptedReply = { text: 'Worked the pad', usage: { input: 100, output: 10 } };

// The same work in each provider's words: click the pad, type the pin into the field, a shortcut,
// a wheel turn, a drag, (a double click), a hover, and OK.
const COMMON_LOG = ['wheel 100,100 0,300', 'drag 20,20 -> 350,180', 'click 350,180 left'];
const DOUBLE_LOG = ['click 300,150 left', 'click 300,150 left', 'dblclick 300,150'];
const END_LOG = ['hovered: menu', `clicked: OK, field ${SECRET.length} chars`];

const providers: Array<{ name: string; llm: () => Record<string, unknown>; script: ScriptedReply[]; log: string[] }> = [
  {
    name: 'OpenAI Responses (computer-use-preview)',
    llm: () => ({ modelName: 'openai/computer-use-preview', apiKey: KEY, baseURL: `${model.url}/v1` }),
    script: [
      step([{ type: 'click', x: 100, y: 50, button: 'left' }]),
      step([{ type: 'click', x: 500, y: 35, button: 'left' }]),
      step([{ type: 'type', text: '%pin%' }]),
      step([{ type: 'keypress', keys: ['CTRL', 'B'] }]),
      step([{ type: 'scroll', x: 100, y: 100, scroll_x: 0, scroll_y: 300 }]),
      step([{ type: 'drag', path: [{ x: 20, y: 20 }, { x: 200, y: 100 }, { x: 350, y: 180 }] }]),
      step([{ type: 'double_click', x: 300, y: 150 }]),
      step([{ type: 'move', x: 650, y: 120 }]),
      step([{ type: 'click', x: 500, y: 120, button: 'left' }]),
      finish,
    ],
    log: ['click 100,50 left', 'shortcut Control+B', ...COMMON_LOG, ...DOUBLE_LOG, ...END_LOG],
  },
  {
    name: 'Anthropic Messages (computer tool)',
    llm: () => ({ modelName: 'anthropic/claude-sonnet-4-5', apiKey: KEY, baseURL: `${model.url}/v1` }),
    script: [
      step([{ action: 'left_click', coordinate: [100, 50] }]),
      step([{ action: 'left_click', coordinate: [500, 35] }]),
      step([{ action: 'type', text: '%pin%' }]),
      step([{ action: 'key', text: 'ctrl+b' }]),
      step([{ action: 'scroll', coordinate: [100, 100], scroll_direction: 'down', scroll_amount: 3 }]),
      step([{ action: 'left_click_drag', start_coordinate: [20, 20], coordinate: [350, 180] }]),
      step([{ action: 'double_click', coordinate: [300, 150] }]),
      step([{ action: 'mouse_move', coordinate: [650, 120] }]),
      step([{ action: 'left_click', coordinate: [500, 120] }]),
      finish,
    ],
    log: ['click 100,50 left', 'shortcut Control+b', ...COMMON_LOG, ...DOUBLE_LOG, ...END_LOG],
  },
  {
    name: 'Google generateContent (computer use)',
    llm: () => ({ modelName: 'google/gemini-2.5-computer-use-preview-10-2025', apiKey: KEY, baseURL: `${model.url}/v1beta` }),
    script: [
      step([{ name: 'click_at', args: { x: 100, y: 100 } }]),
      step([{ name: 'type_text_at', args: { x: 500, y: 70, text: '%pin%', press_enter: false } }]),
      step([{ name: 'key_combination', args: { keys: 'control+b' } }]),
      step([{ name: 'scroll_at', args: { x: 100, y: 200, direction: 'down', magnitude: 600 } }]),
      step([{ name: 'drag_and_drop', args: { x: 20, y: 40, destination_x: 350, destination_y: 360 } }]),
      step([{ name: 'hover_at', args: { x: 650, y: 240 } }]),
      step([{ name: 'click_at', args: { x: 500, y: 240 } }]),
      finish,
    ],
    // type_text_at clears the field first (Control+A, Delete) unless told not to.
    log: ['click 100,50 left', 'shortcut Control+a', 'shortcut Control+b', ...COMMON_LOG, ...END_LOG],
  },
];

async function agent(id: string, body: Record<string, unknown>) {
  const reply = await ctx.api.call('agentExecute', { id, body, headers: json });
  expectOk(reply);
  return reply.body.data.result as AgentResult;
}

const onPad = () => ctx.sessionOn('coordinates.html', { browser: { ...START_BODY.browser, launchOptions: { headless: true, viewport: VIEWPORT } } });

describe('agentExecute in cua mode', () => {
  for (const provider of providers) {
    it(`${provider.name}: the provider's computer calls land at their coordinates; each answer is a screenshot image; variables by name only`, async () => {
      const id = await onPad();
      model.script(provider.script);
      const result = await agent(id, {
        agentConfig: { model: provider.llm(), mode: 'cua', systemPrompt: 'Be careful, okapi-marker.' },
        executeOptions: { instruction: 'Work the pad and enter the pin', variables: { pin: { value: SECRET, description: 'the pin code' } } },
      });
      const turns = provider.script.length;
      expect(result, result.message).toMatchObject({ success: true, completed: true, message: 'Worked the pad', metadata: { stopReason: 'done', steps: turns } });
      expect(result.actions.every((a) => a.success)).toBe(true);
      expect(result.usage).toMatchObject({ input_tokens: 100 * turns, output_tokens: 10 * turns });
      const log = (await pageText(ctx.api, id, '#log')).split('\n').map((l) => l.trim()).filter(Boolean);
      expect(log).toEqual(provider.log);

      expect(model.requests).toHaveLength(turns);
      const first = model.requests[0]!;
      expect(first.raw).toContain('Work the pad and enter the pin');
      expect(first.raw).toContain('%pin%');
      expect(first.raw).toContain('the pin code');
      expect(first.raw).toContain('okapi-marker');
      // Every answer after the first turn is a screenshot, sent as an image of the format's own kind.
      for (const request of model.requests.slice(1)) {
        const images = imagesIn(request);
        expect(images.length).toBeGreaterThanOrEqual(1);
        expect(images.at(-1)).toMatchObject({ in: 'tool', mediaType: 'image/png', data: expect.stringMatching(/^iVBOR/) });
      }
      for (const request of model.requests) expect(request.raw).not.toContain(SECRET);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(ctx.server.logs.join('\n')).not.toContain(SECRET);
      expect(ctx.server.logs.join('\n')).not.toContain(KEY);
    });
  }

  it('OpenAI: the computer_use_preview tool with the viewport as display; each computer_call answered by a computer_call_output with its call_id', async () => {
    const id = await onPad();
    model.script([providers[0]!.script[0]!, finish]);
    await agent(id, { agentConfig: { model: providers[0]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } });
    const [first, second] = model.requests.map((r) => r.body as Record<string, any>);
    expect(first!.tools).toEqual([{ type: 'computer_use_preview', display_width: 1000, display_height: 500, environment: 'browser' }]);
    expect(first!.truncation).toBe('auto');
    const input = second!.input as Array<Record<string, any>>;
    // The model's reasoning and call go back with it, then the call's output.
    expect(input.map((item) => item.type ?? item.role)).toEqual(['user', 'reasoning', 'computer_call', 'computer_call_output']);
    expect(input[2]!.call_id).toMatch(/^call_cu_/);
    expect(input[3]).toMatchObject({ call_id: input[2]!.call_id, output: { type: 'input_image', image_url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } });
  });

  it('Anthropic: the computer tool at the viewport size with its beta; each tool_use answered by a tool_result holding the screenshot', async () => {
    const id = await onPad();
    model.script([providers[1]!.script[0]!, finish]);
    await agent(id, { agentConfig: { model: providers[1]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } });
    const [first, second] = model.requests;
    expect((first!.body as Record<string, any>).tools).toEqual([{ name: 'computer', type: 'computer_20250124', display_width_px: 1000, display_height_px: 500 }]);
    expect(first!.headers['anthropic-beta']).toContain('computer-use-2025-01-24');
    const [, call, last] = (second!.body as Record<string, any>).messages as Array<Record<string, any>>;
    expect(call!.content[0]).toMatchObject({ type: 'tool_use', name: 'computer', input: { action: 'left_click', coordinate: [100, 50] } });
    expect(last!.role).toBe('user');
    expect(last!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: call!.content[0].id });
    expect(last!.content[0].content.map((b: { type: string }) => b.type)).toEqual(['text', 'image']);
  });

  it('Google: the computerUse tool for a browser; each function call answered by a functionResponse with the URL and the screenshot', async () => {
    const id = await onPad();
    model.script([providers[2]!.script[0]!, finish]);
    await agent(id, { agentConfig: { model: providers[2]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } });
    const [first, second] = model.requests.map((r) => r.body as Record<string, any>);
    expect(first!.tools).toEqual([{ computerUse: { environment: 'ENVIRONMENT_BROWSER' } }]);
    const last = (second!.contents as Array<Record<string, any>>).at(-1)!;
    expect(last.role).toBe('user');
    expect(last.parts[0].functionResponse).toMatchObject({
      name: 'click_at',
      response: { url: expect.stringContaining('/coordinates.html') },
      parts: [{ inlineData: { mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) } }],
    });
  });

  it('an action this server does not do, or a point off the viewport, is a failed step the model hears about; the run goes on', async () => {
    const id = await onPad();
    model.script([
      step([{ action: 'triple_click', coordinate: [100, 50] }]),
      step([{ action: 'left_click', coordinate: [5000, 10] }]),
      step([{ action: 'left_click', coordinate: [100, 50] }]),
      finish,
    ]);
    const result = await agent(id, { agentConfig: { model: providers[1]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } });
    expect(result, result.message).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 4 } });
    expect(result.actions.map((a) => a.success)).toEqual([false, false, true]);
    expect(model.requests[1]!.raw).toContain('the action triple_click is not supported');
    expect(model.requests[2]!.raw).toMatch(/\(5000, 10\) is outside the viewport/);
    expect((await pageText(ctx.api, id, '#log')).trim()).toBe('click 100,50 left');
  });

  it('a call the provider wants a person to confirm (OpenAI pending safety check) stops the run, refused, before it runs', async () => {
    const id = await onPad();
    model.script([
      step([{ type: 'click', x: 100, y: 50, button: 'left', pending_safety_checks: [{ id: 'cu_sc_1', code: 'malicious_instructions', message: 'The page may hold instructions meant to mislead.' }] }]),
    ]);
    const result = await agent(id, { agentConfig: { model: providers[0]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } });
    expect(result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'refused', steps: 1 } });
    expect(result.message).toMatch(/confirm.*instructions meant to mislead/);
    expect(model.requests).toHaveLength(1);
    expect((await pageText(ctx.api, id, '#log')).trim()).toBe('');
  });

  it('cua with a model that has no computer use is 422 saying so, before anything runs; mode wins over the deprecated cua flag', async () => {
    const id = await onPad();
    for (const llm of [{ modelName: 'openai/gpt-4.1-mini', apiKey: KEY, baseURL: `${model.url}/v1` }, 'anthropic/claude-3-5-haiku-latest', 'google/gemini-2.5-flash']) {
      const body = expectError(
        await ctx.api.call('agentExecute', { id, body: { agentConfig: { model: llm, mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } }, headers: json }),
        422,
        'unprocessable',
      );
      expect(body.message).toMatch(/has no computer use/);
    }
    // The deprecated flag alone asks for cua.
    expectError(
      await ctx.api.call('agentExecute', { id, body: { agentConfig: { model: 'openai/gpt-4.1-mini', cua: true }, executeOptions: { instruction: 'Click' } }, headers: json }),
      422,
      'unprocessable',
    );
    expect(model.requests).toHaveLength(0);
    // mode dom with cua: true and a computer-use model runs the dom tools, not the computer tool.
    model.script([{ toolCalls: [{ name: 'done', args: { success: true, message: 'Nothing to do' } }] }]);
    await agent(id, { agentConfig: { model: providers[0]!.llm(), mode: 'dom', cua: true }, executeOptions: { instruction: 'Look' } });
    const tools = (model.requests[0]!.body as { tools: Array<{ type: string; name?: string }> }).tools;
    expect(tools.map((t) => t.name)).toContain('done');
    expect(tools.map((t) => t.type)).not.toContain('computer_use_preview');
  });

  for (const provider of [providers[0]!, providers[2]!]) {
    it(`${provider.name}: a provider failure gets one more try; a second one ends the run with stop reason error, the key never in it`, async () => {
      const id = await onPad();
      model.script([{ status: 503, message: 'busy' }, provider.script[0]!, { status: 500, message: 'boom' }, { status: 500, message: 'boom' }]);
      const result = await agent(id, { agentConfig: { model: provider.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } });
      expect(result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'error', steps: 2 } });
      // The status and the provider's error type; never the body's text.
      expect(result.message).toMatch(/HTTP 500: (server_error|INTERNAL)$/);
      expect(result.message).not.toContain(KEY);
      expect(model.requests).toHaveLength(4);
      expect((await pageText(ctx.api, id, '#log')).trim()).toBe('click 100,50 left');
    }, 20_000);
  }

  it('a client that goes away cancels the computer-use call in flight, and the session takes the next operation', async () => {
    const id = await onPad();
    model.hang();
    const gone = new AbortController();
    const call = fetch(`${ctx.server.url}/v1/sessions/${id}/agentExecute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...json },
      body: JSON.stringify({ agentConfig: { model: providers[2]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } }),
      signal: gone.signal,
    }).catch(() => undefined);
    await expect.poll(() => model.requests.length).toBe(1);
    gone.abort();
    await call;
    await expect.poll(() => model.requests[0]!.abandoned).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toBe('');
  });

  it('the URL sent back with a screenshot is masked: a typed variable a GET form put into it never reaches the model', async () => {
    const id = await onPad();
    model.script([
      step([{ name: 'type_text_at', args: { x: 500, y: 70, text: '%pin%', press_enter: true } }]),
      step([{ name: 'wait_5_seconds', args: {} }]),
      finish,
    ]);
    const result = await agent(id, {
      agentConfig: { model: providers[2]!.llm(), mode: 'cua' },
      executeOptions: { instruction: 'Search for the pin', variables: { pin: SECRET } },
    });
    expect(result, result.message).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 3 } });
    const sent = (model.requests[1]!.body as { contents: Array<{ parts: Array<Record<string, any>> }> }).contents.at(-1)!.parts[0]!.functionResponse.response.url;
    // The page went to the URL with the value in it; the model got the mask in its place.
    expect(sent).toMatch(/coordinates\.html\?q=(•|%E2%80%A2)+$/);
    for (const request of model.requests) expect(request.raw).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('streams each page action as a log line (provider action → tool, variables by name), then finished', async () => {
    const id = await onPad();
    model.script([step([{ action: 'left_click', coordinate: [500, 35] }]), step([{ action: 'type', text: '%pin%' }]), finish]);
    const reply = await ctx.api.call('agentExecute', {
      id,
      body: { agentConfig: { model: providers[1]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Enter the pin', variables: { pin: SECRET } } },
      headers: { 'x-stream-response': 'true' },
    });
    expect(finishedOf(reply).result).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 3 } });
    const steps = reply.events!.filter((e) => e.data.status === 'running').map((e) => e.data.message.message as string).filter((l) => /^step \d+:/.test(l));
    expect(steps).toEqual(['step 1: left_click → click {"x":500,"y":35,"button":"left"} → done', 'step 2: type → type {"text":"%pin%"} → done']);
    expect(JSON.stringify(reply.events)).not.toContain(SECRET);
  });

  it('maxSteps counts model turns; a page action that outlives toolTimeout is a failed step the model hears about', async () => {
    const id = await onPad();
    model.script([step([{ name: 'wait_5_seconds', args: {} }]), step([{ name: 'click_at', args: { x: 100, y: 100 } }])]);
    const result = await agent(id, { agentConfig: { model: providers[2]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad', maxSteps: 2, toolTimeout: 1500 } });
    expect(result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'max_steps', steps: 2 } });
    expect(result.actions.map((a) => [a.type, a.success])).toEqual([['wait', false], ['click', true]]);
    expect(result.actions[0]!.error).toMatch(/timed out after 1500 ms/);
    expect(model.requests).toHaveLength(2);
    const answer = (model.requests[1]!.body as { contents: Array<{ parts: Array<Record<string, any>> }> }).contents.at(-1)!.parts[0]!.functionResponse;
    expect(answer).toMatchObject({ name: 'wait_5_seconds', response: { error: expect.stringMatching(/timed out after 1500 ms/) } });
    expect((await pageText(ctx.api, id, '#log')).trim()).toBe('click 100,50 left');
  });

  it('OpenAI: a failed call is still answered with its screenshot, and the failure is said in a message after the outputs', async () => {
    const id = await onPad();
    model.script([step([{ type: 'click', x: 100, y: 50, button: 'forward' }]), finish]);
    const result = await agent(id, { agentConfig: { model: providers[0]!.llm(), mode: 'cua' }, executeOptions: { instruction: 'Click the pad' } });
    expect(result.actions.map((a) => [a.type, a.success])).toEqual([['click', false]]);
    const input = (model.requests[1]!.body as { input: Array<Record<string, any>> }).input;
    expect(input.slice(-2).map((item) => item.type ?? item.role)).toEqual(['computer_call_output', 'user']);
    expect(input.at(-1)!.content[0].text).toBe('The click action failed: a click with the forward button is not supported by this server');
  });
});
