// agentExecute driven by a language model: the loopback model server scripts multi-step tool calls
// in each wire format; the tests assert what the model was sent (variables by name, never a value),
// what happened in the page, the usage sums (inner act/extract calls included), stop reasons and the
// per-step stream.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptedReply } from '../support/model-server';
import { expectError, expectOk, finishedOf, firstChildFrameId, useContract } from '../support/contract';
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
const SECRET = 'pw-never-sent-4471';
const KEY = 'sk-agent-key-never-echo-9090';

type AgentResult = {
  success: boolean;
  completed: boolean;
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

async function agent(id: string, body: Record<string, unknown>, headers: Record<string, string> = json) {
  const reply = await ctx.api.call('agentExecute', { id, body, headers });
  expectOk(reply);
  return reply.body.data.result as AgentResult;
}

const signUp: ScriptedReply[] = [
  {
    toolCalls: [{ name: 'fillForm', args: { fields: [{ field: 'Name', value: 'Ada' }, { field: 'Password', value: '%pass%' }] } }],
    usage: { input: 100, output: 10 },
  },
  { toolCalls: [{ name: 'act', args: { action: 'click Submit' } }], usage: { input: 200, output: 20 } },
  { toolCalls: [{ name: 'done', args: { success: true, message: 'Signed up as Ada' } }], usage: { input: 300, output: 30 } },
];

describe('agentExecute with a model (dom mode)', () => {
  for (const [format, llm] of formats) {
    it(`${format}: runs the model's tool calls to done; the model sees variable names only`, async () => {
      const id = await ctx.sessionOn('forms.html');
      model.script(signUp);
      const result = await agent(id, {
        agentConfig: { model: llm(), executionModel: 'builtin/offline', systemPrompt: 'Be brief, zebra-marker.' },
        executeOptions: { instruction: 'Sign up as Ada with the password', variables: { pass: { value: SECRET, description: 'the account password' } } },
      });
      expect(result, result.message).toMatchObject({ success: true, completed: true, message: 'Signed up as Ada', metadata: { stopReason: 'done', steps: 3 } });
      expect(result.actions.map((a) => a.type)).toEqual(['fillForm', 'act', 'done']);
      expect(result.actions.map((a) => a.success)).toEqual([true, true, true]);
      expect(result.actions[2]!.taskCompleted).toBe(true);
      expect(result.usage).toMatchObject({ input_tokens: 600, output_tokens: 60 });
      expect(await pageText(ctx.api, id, '#result')).toMatch(new RegExp(`^submitted: Ada / +/ ${SECRET.length} chars`));

      expect(model.requests).toHaveLength(3);
      for (const request of model.requests) expect(request.raw).not.toContain(SECRET);
      const first = model.requests[0]!.raw;
      expect(first).toContain('Sign up as Ada with the password');
      expect(first).toContain('%pass%');
      expect(first).toContain('the account password');
      expect(first).toContain('zebra-marker');
      for (const tool of ['act', 'fillForm', 'observe', 'outline', 'extract', 'navigate', 'back', 'forward', 'scroll', 'keys', 'wait', 'screenshot', 'think', 'done']) {
        expect(first).toContain(`"${tool}"`);
      }
      // Each later turn carries the outcome of the calls before it.
      expect(model.requests[1]!.raw).toMatch(/fillForm/);
      expect(model.requests[2]!.raw).toMatch(/click Submit/);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(ctx.server.logs.join('\n')).not.toContain(SECRET);
      expect(ctx.server.logs.join('\n')).not.toContain(KEY);
    });
  }

  it('masks a variable value the page shows back before a tool result reaches the model', async () => {
    const id = await ctx.sessionOn('forms.html');
    const name = 'Zed-Secret-Name-5150';
    model.script([
      { toolCalls: [{ name: 'fillForm', args: { fields: [{ field: 'Name', value: '%who%' }] } }] },
      { toolCalls: [{ name: 'act', args: { action: 'click Submit' } }] },
      { toolCalls: [{ name: 'extract', args: {} }] },
      { toolCalls: [{ name: 'done', args: { success: true, message: 'Submitted' } }] },
    ]);
    const result = await agent(id, {
      agentConfig: { model: formats[0]![1](), executionModel: 'builtin/offline' },
      executeOptions: { instruction: 'Submit the form under the name', variables: { who: name } },
    });
    expect(result.metadata).toEqual({ stopReason: 'done', steps: 4 });
    // The page really shows the value, and the model only ever saw the mask in its place.
    expect(await pageText(ctx.api, id, '#result')).toContain('submitted: ••••');
    expect(model.requests).toHaveLength(4);
    expect(model.requests[3]!.raw).toContain('submitted: ••••');
    for (const request of model.requests) expect(request.raw).not.toContain(name);
  });

  it("answers the page's confirm and prompt through the dialog tool, typing a variable into the prompt unseen by the model", async () => {
    const id = await ctx.sessionOn('dialogs.html');
    const folder = 'Folder-Secret-7781';
    model.script([
      { toolCalls: [{ name: 'dialog', args: { action: 'accept' } }] },
      { toolCalls: [{ name: 'act', args: { action: 'click Delete' } }] },
      { toolCalls: [{ name: 'dialog', args: { action: 'accept', promptText: '%folder%' } }] },
      { toolCalls: [{ name: 'act', args: { action: 'click Rename folder' } }] },
      { toolCalls: [{ name: 'dialog', args: { action: 'dismiss' } }] },
      { toolCalls: [{ name: 'done', args: { success: true, message: 'Deleted and renamed' } }] },
    ]);
    const result = await agent(id, {
      agentConfig: { model: formats[0]![1](), executionModel: 'builtin/offline' },
      executeOptions: { instruction: 'Delete the report and rename the folder', variables: { folder } },
    });
    expect(result, result.message).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 6 } });
    expect(result.actions.map((a) => [a.type, a.success])).toEqual([
      ['dialog', true],
      ['act', true],
      ['dialog', true],
      ['act', true],
      ['dialog', true],
      ['done', true],
    ]);
    // The prompt got the value (the page text masks it, as the session's secret), not the placeholder.
    expect(await pageText(ctx.api, id, '#log')).toMatch(/deleted: report\.pdf\s*renamed to: ••••$/);
    expect(model.requests[0]!.raw).toContain('"dialog"');
    // The model hears which dialogs opened and how they were answered, and never the value typed.
    expect(model.requests[3]!.raw).toMatch(/Delete report\.pdf\?.*accepted/);
    expect(model.requests[5]!.raw).toMatch(/New name for the folder.*accepted/);
    for (const request of model.requests) expect(request.raw).not.toContain(folder);
    expect(JSON.stringify(result)).not.toContain(folder);
  });

  for (const [format, llm] of formats) {
    it(`${format}: a screenshot reaches the model as an image; an unknown tool or bad arguments is a failed step it hears about`, async () => {
      const id = await ctx.sessionOn('forms.html');
      model.script([
        { toolCalls: [{ name: 'screenshot', args: {} }] },
        { toolCalls: [{ name: 'frobnicate', args: { x: 1 } }] },
        { toolCalls: [{ name: 'scroll', args: { direction: 'sideways' } }] },
        { toolCalls: [{ name: 'done', args: { success: true, message: 'Looked' } }] },
      ]);
      const result = await agent(id, { agentConfig: { model: llm() }, executeOptions: { instruction: 'Look at the page' } });
      expect(result, result.message).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 4 } });
      expect(result.actions.map((a) => [a.type, a.success])).toEqual([
        ['screenshot', true],
        ['frobnicate', false],
        ['scroll', false],
        ['done', true],
      ]);
      // A PNG's base64 starts with iVBOR; the image travels in the second request.
      expect(model.requests[1]!.raw).toContain('iVBOR');
      // Each call gets exactly one result: ours, not the SDK's own on top of it.
      expect(model.requests[2]!.raw).toContain('there is no tool named frobnicate');
      expect(model.requests[2]!.raw).not.toContain('unavailable tool');
      expect(model.requests[3]!.raw).toMatch(/invalid arguments for scroll/);
    });
  }

  it('counts the tokens of act/extract calls inside tools (the execution model inherits the agent model)', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.script([
      { toolCalls: [{ name: 'extract', args: { instruction: 'the heading' } }], usage: { input: 100, output: 10 } },
      { json: { extraction: 'Sign up' }, usage: { input: 50, output: 5 } },
      { toolCalls: [{ name: 'done', args: { success: true, message: 'The heading is Sign up' } }], usage: { input: 100, output: 10 } },
    ]);
    const result = await agent(id, { agentConfig: { model: formats[0]![1]() }, executeOptions: { instruction: 'Read the heading' } });
    expect(result).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 2 } });
    expect(result.usage).toMatchObject({ input_tokens: 250, output_tokens: 25 });
    expect(model.requests).toHaveLength(3);
    // The inner extract is asked about the page; its answer reaches the agent model's next turn.
    expect(model.requests[1]!.raw).toContain('the heading');
    expect(model.requests[2]!.raw).toContain('Sign up');
    const replay = await ctx.api.call('replaySession', { id });
    const record = (replay.body.data.pages as Array<{ actions: Array<Record<string, any>> }>).flatMap((p) => p.actions).find((a) => a.method === 'agentExecute');
    expect(record?.tokenUsage).toMatchObject({ inputTokens: 250, outputTokens: 25 });
  });

  it('stops at maxSteps with that reason, having asked the model exactly maxSteps times', async () => {
    const id = await ctx.sessionOn('forms.html');
    const think = (thought: string): ScriptedReply => ({ toolCalls: [{ name: 'think', args: { thought } }] });
    model.script([think('first'), think('second')]);
    const result = await agent(id, { agentConfig: { model: formats[0]![1]() }, executeOptions: { instruction: 'Ponder', maxSteps: 2 } });
    expect(result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'max_steps', steps: 2 } });
    expect(model.requests).toHaveLength(2);
  });

  it('a tool call that outlives toolTimeout is a failed step the model hears about; the run goes on', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.script([
      { toolCalls: [{ name: 'wait', args: { ms: 10_000 } }] },
      { toolCalls: [{ name: 'done', args: { success: false, message: 'The page never changed' } }] },
    ]);
    const result = await agent(id, { agentConfig: { model: formats[0]![1]() }, executeOptions: { instruction: 'Wait for the page', toolTimeout: 300 } });
    expect(result).toMatchObject({ success: false, completed: true, message: 'The page never changed', metadata: { stopReason: 'done', steps: 2 } });
    expect(result.actions[0]).toMatchObject({ type: 'wait', success: false, error: expect.stringMatching(/timed out after 300 ms/) });
    expect(model.requests[1]!.raw).toMatch(/timed out after 300 ms/);
  });

  it('a provider failure mid-run is a 200 with stop reason error and the steps done so far', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.script([{ toolCalls: [{ name: 'think', args: { thought: 'look first' } }] }, { status: 500, message: 'boom' }, { status: 500, message: 'boom' }]);
    const result = await agent(id, { agentConfig: { model: formats[0]![1]() }, executeOptions: { instruction: 'Do something' } });
    expect(result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'error', steps: 2 } });
    expect(result.message).toMatch(/HTTP 500/);
    expect(result.actions).toHaveLength(1);
  }, 20_000);

  it('streams each step as a log line with variables by name, then finished', async () => {
    const id = await ctx.sessionOn('forms.html');
    model.script(signUp);
    const reply = await ctx.api.call('agentExecute', {
      id,
      body: {
        agentConfig: { model: formats[0]![1](), executionModel: 'builtin/offline' },
        executeOptions: { instruction: 'Sign up as Ada', variables: { pass: SECRET } },
      },
      headers: { 'x-stream-response': 'true' },
    });
    const finished = finishedOf(reply);
    expect(finished.result).toMatchObject({ success: true, metadata: { stopReason: 'done', steps: 3 } });
    const steps = reply.events!.filter((e) => e.data.status === 'running').map((e) => e.data.message.message as string).filter((l) => /^step \d+:/.test(l));
    expect(steps).toEqual([
      expect.stringMatching(/^step 1: fillForm .*%pass%/),
      expect.stringMatching(/^step 2: act .*click Submit/),
      expect.stringMatching(/^step 3: done /),
    ]);
    expect(JSON.stringify(reply.events)).not.toContain(SECRET);
  });

  it('frameId keeps the tools in that frame: the outline the model reads is the frame\'s', async () => {
    const id = await ctx.sessionOn('iframe.html');
    const frameId = await firstChildFrameId(ctx.api, id);
    model.script([
      { toolCalls: [{ name: 'outline', args: {} }] },
      { toolCalls: [{ name: 'done', args: { success: true, message: 'Read the frame' } }] },
    ]);
    const result = await agent(id, { agentConfig: { model: formats[0]![1]() }, executeOptions: { instruction: 'Read the frame' }, frameId });
    expect(result.metadata).toEqual({ stopReason: 'done', steps: 2 });
    expect(model.requests[1]!.raw).toContain('Inner button');
    expect(model.requests[1]!.raw).not.toContain('Before the frame');
  });

  it('a model without a key is 400 missing_model_key before anything runs', async () => {
    const id = await ctx.sessionOn('forms.html');
    const body = expectError(
      await ctx.api.call('agentExecute', { id, body: { agentConfig: { model: 'anthropic/claude-sonnet-4-5' }, executeOptions: { instruction: 'Sign up' } }, headers: json }),
      400,
      'missing_model_key',
    );
    expect(body.message).toMatch(/anthropic/);
    expect(model.requests).toHaveLength(0);
  });
});
