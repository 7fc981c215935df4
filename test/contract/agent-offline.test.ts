// agentExecute with no model key (builtin/offline): a plain multi-step instruction is cut into steps,
// each grounded and run in turn; the run stops honestly at the first step it cannot ground, at
// maxSteps, and modes or options this server cannot honour are refused before anything runs.
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, finishedOf, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();
const json = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };

type AgentResult = {
  success: boolean;
  completed: boolean;
  message: string;
  actions: Array<Record<string, any>>;
  metadata: { stopReason: string; steps: number };
  usage: Record<string, number>;
};

async function agent(id: string, executeOptions: Record<string, unknown>, agentConfig: Record<string, unknown> = {}) {
  const reply = await ctx.api.call('agentExecute', { id, body: { agentConfig, executeOptions }, headers: json });
  expectOk(reply);
  return reply.body.data.result as AgentResult;
}

describe('agentExecute on the built-in offline model', () => {
  it('runs a multi-step instruction step by step, with a variable typed but never echoed', async () => {
    const secret = 'pw-offline-7731';
    const id = await ctx.sessionOn('forms.html');
    const result = await agent(id, {
      instruction: "type 'Ada' into Name, fill %pass% into Password and click Submit",
      variables: { pass: { value: secret, description: 'the password' } },
    });
    expect(result, result.message).toMatchObject({ success: true, completed: true, metadata: { stopReason: 'done', steps: 3 } });
    expect(result.actions.map((a) => a.instruction)).toEqual(["type 'Ada' into Name", 'fill %pass% into Password', 'click Submit']);
    expect(result.actions.every((a) => a.type === 'act' && a.success === true && typeof a.timeMs === 'number' && a.pageUrl.endsWith('/forms.html'))).toBe(true);
    expect(result.actions.at(-1)!.taskCompleted).toBe(true);
    expect(result.usage).toMatchObject({ input_tokens: 0, output_tokens: 0, inference_time_ms: expect.any(Number) });
    expect(await pageText(ctx.api, id, '#result')).toMatch(new RegExp(`^submitted: Ada / +/ ${secret.length} chars /`));
    const replay = await ctx.api.call('replaySession', { id });
    expect(JSON.stringify(replay.body)).toContain('agentExecute');
    expect(JSON.stringify(replay.body)).not.toContain(secret);
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it('splits on "and then" and runs both selections in order', async () => {
    const id = await ctx.sessionOn('select.html');
    const result = await agent(id, { instruction: 'select "Green" from Color and then select "Blue" from Color' });
    expect(result.metadata).toEqual({ stopReason: 'done', steps: 2 });
    expect(await pageText(ctx.api, id, '#log')).toMatch(/selected: g[\s\S]*selected: b/);
  });

  it('stops at the first step it cannot ground, saying which, and never runs the steps after it', async () => {
    const id = await ctx.sessionOn('forms.html');
    const result = await agent(id, { instruction: "type 'Ada' into Name, then frobnicate the widget; click Submit" });
    expect(result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'refused', steps: 2 } });
    expect(result.message).toContain('step 2 of 3');
    expect(result.message).toContain('frobnicate the widget');
    expect(result.actions.map((a) => a.success)).toEqual([true, false]);
    // Submit was never pressed.
    expect(await pageText(ctx.api, id, '#result')).toBe('');
  });

  it('an instruction with no step in it is refused, never a success of nothing', async () => {
    const id = await ctx.sessionOn('forms.html');
    const result = await agent(id, { instruction: '.' });
    expect(result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'refused' } });
    expect(result.message).toMatch(/names no step/);
  });

  it('stops at maxSteps with that reason', async () => {
    const id = await ctx.sessionOn('forms.html');
    const result = await agent(id, { instruction: "type 'Ada' into Name, then click Submit", maxSteps: 1 });
    expect(result).toMatchObject({ success: false, completed: false, metadata: { stopReason: 'max_steps', steps: 1 } });
    expect(result.actions).toHaveLength(1);
    expect(await pageText(ctx.api, id, '#result')).toBe('');
  });

  it('streams one log line per step, then finished with the result', async () => {
    const id = await ctx.sessionOn('forms.html');
    const reply = await ctx.api.call('agentExecute', {
      id,
      body: { agentConfig: {}, executeOptions: { instruction: "type 'Ada' into Name, then click Submit" } },
      headers: { 'x-stream-response': 'true' },
    });
    const finished = finishedOf(reply);
    expect(finished.result).toMatchObject({ success: true, completed: true, metadata: { stopReason: 'done', steps: 2 } });
    const lines = reply.events!.filter((e) => e.data.status === 'running').map((e) => e.data.message.message as string);
    const steps = lines.filter((l) => /^step \d+:/.test(l));
    expect(steps).toEqual([expect.stringContaining("step 1: type 'Ada' into Name"), expect.stringContaining('step 2: click Submit')]);
  });

  it('refuses before anything runs: cua mode is 422 (mode wins over cua: false), useSearch with no provider and an unknown frameId are 400', async () => {
    const id = await ctx.sessionOn('forms.html');
    const instruction = "type 'Ada' into Name";
    const cua = expectError(await ctx.api.call('agentExecute', { id, body: { agentConfig: { mode: 'cua', cua: false }, executeOptions: { instruction } }, headers: json }), 422, 'unprocessable');
    expect(cua.message).toMatch(/computer use/);
    const search = expectError(await ctx.api.call('agentExecute', { id, body: { agentConfig: {}, executeOptions: { instruction, useSearch: true } }, headers: json }), 400, 'validation_error');
    expect(search.message).toMatch(/search provider/);
    // Refused before a stream opens, too: a streamed request gets the 422 itself, not an error event.
    expectError(await ctx.api.call('agentExecute', { id, body: { agentConfig: { mode: 'cua' }, executeOptions: { instruction } }, headers: { 'x-stream-response': 'true' } }), 422, 'unprocessable');
    // The deprecated flag alone still asks for cua.
    expectError(await ctx.api.call('agentExecute', { id, body: { agentConfig: { cua: true }, executeOptions: { instruction } }, headers: json }), 422, 'unprocessable');
    const replay = await ctx.api.call('replaySession', { id });
    expect(JSON.stringify(replay.body)).not.toContain('agentExecute');
    // A frame is looked up once the run has the page: still a 400, before any step.
    expectError(
      await ctx.api.call('agentExecute', { id, body: { agentConfig: {}, executeOptions: { instruction }, frameId: 'NO-SUCH-FRAME' }, headers: json }),
      400,
      'frame_not_found',
    );
  });
});
