// The agent cache through the API: with shouldCache a successful run is a MISS that returns (and
// stores) an entry of its deterministic steps; the same run again is a HIT replayed with no model
// request and the page ends the same; a page whose target was renamed falls back to the model from
// the failing step and the entry is rewritten; variable values never reach the entry or its files;
// a stream's finished event carries the entry; the offline model caches too.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptedReply } from '../support/model-server';
import { expectOk, finishedOf, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const cacheDir = mkdtempSync(join(tmpdir(), 'deckhand-agent-cache-'));
let model: ModelServer;
beforeAll(async () => {
  model = await startModelServer();
});
afterAll(async () => {
  await model.close();
  rmSync(cacheDir, { recursive: true, force: true });
});
const ctx = useContract({ DECKHAND_CACHE_DIR: cacheDir });
beforeEach(() => {
  model.requests.length = 0;
});

const SECRET = 'pw-agent-cache-7731';
const json = { 'x-stream-response': 'false' };
const llm = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-agent-cache-test', baseURL: `${model.url}/v1` });

type Step = { tool: string; instruction?: string; actions?: Array<Record<string, unknown>>; targets?: Array<{ role: string; name: string } | null>; input?: unknown };
type CacheEntry = { cacheKey: string; entry: { version: number; kind: string; steps: Step[]; result: { success: boolean; message: string } } };

async function agent(id: string, body: Record<string, unknown>, headers: Record<string, string> = json) {
  const reply = await ctx.api.call('agentExecute', { id, body, headers });
  expectOk(reply);
  return {
    result: reply.body.data.result,
    cacheEntry: reply.body.data.cacheEntry as CacheEntry | undefined,
    status: reply.headers.get('browserbase-cache-status'),
  };
}

const saveName = (button: string): ScriptedReply[] => [
  { toolCalls: [{ name: 'act', args: { action: 'type %name% into the Name field' } }], usage: { input: 100, output: 10 } },
  { toolCalls: [{ name: 'act', args: { action: `click ${button}` } }], usage: { input: 100, output: 10 } },
  { toolCalls: [{ name: 'done', args: { success: true, message: 'Saved the name' } }], usage: { input: 100, output: 10 } },
];

const request = (instruction: string) => ({
  agentConfig: { model: llm(), executionModel: 'builtin/offline' },
  executeOptions: { instruction, variables: { name: { value: SECRET, description: 'the name to save' } } },
  shouldCache: true,
});

/** Every file the server keeps under its cache directory (each project's act and agent entries). */
function cacheFiles(): string {
  return readdirSync(cacheDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('agent cache', () => {
  it('first run is a MISS with an entry; the same run again is a HIT with no model request and the same page', async () => {
    const first = await ctx.sessionOn('agent-cache.html');
    model.script(saveName('Save'));
    const miss = await agent(first, request('Save my name on the profile'));
    expect(miss.result, miss.result.message).toMatchObject({ success: true, completed: true, message: 'Saved the name' });
    expect(miss.status).toBe('MISS');
    expect(model.requests).toHaveLength(3);
    expect(miss.cacheEntry?.cacheKey).toMatch(/^[a-f0-9]{64}$/);
    expect(miss.cacheEntry!.entry).toMatchObject({ version: 1, kind: 'agent', result: { success: true, message: 'Saved the name' } });
    expect(miss.cacheEntry!.entry.steps.map((s) => [s.tool, s.instruction])).toEqual([
      ['act', 'type %name% into the Name field'],
      ['act', 'click Save'],
    ]);
    expect(miss.cacheEntry!.entry.steps[1]!.targets).toEqual([{ role: 'button', name: 'Save' }]);
    expect(miss.cacheEntry!.entry.steps[1]!.actions![0]!.selector).toEqual(expect.any(String));
    const finalState = await pageText(ctx.api, first, '#result');
    expect(finalState).toMatch(new RegExp(`saved ${SECRET.length} chars starting p`));

    model.requests.length = 0;
    const second = await ctx.sessionOn('agent-cache.html');
    const hit = await agent(second, request('Save my name on the profile'));
    expect(hit.status).toBe('HIT');
    expect(model.requests).toHaveLength(0);
    expect(hit.result).toMatchObject({ success: true, completed: true, message: 'Saved the name', metadata: { stopReason: 'done', steps: 2, cacheHit: true, replayedSteps: 2 } });
    expect(miss.result.metadata).toMatchObject({ cacheHit: false, replayedSteps: 0 });
    expect(hit.result.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
    expect(hit.result.actions.map((a: { type: string; success: boolean }) => [a.type, a.success])).toEqual([['act', true], ['act', true]]);
    expect(hit.cacheEntry?.cacheKey).toBe(miss.cacheEntry!.cacheKey);
    expect(await pageText(ctx.api, second, '#result')).toBe(finalState);

    // Variables by name only: not in the entry handed out, nor in the files the server keeps.
    expect(JSON.stringify(miss.cacheEntry)).toContain('%name%');
    expect(JSON.stringify(miss.cacheEntry)).not.toContain(SECRET);
    expect(JSON.stringify(hit)).not.toContain(SECRET);
    expect(cacheFiles()).toContain('%name%');
    expect(cacheFiles()).not.toContain(SECRET);
  });

  it('a renamed target falls back to the model from the failing step, with the history, and the entry is rewritten', async () => {
    const instruction = 'Save my name, then stop';
    const original = await ctx.sessionOn('agent-cache.html');
    model.script(saveName('Save'));
    const stored = await agent(original, request(instruction));
    expect(stored.status).toBe('MISS');

    model.requests.length = 0;
    const renamed = await ctx.sessionOn('agent-cache.html#renamed');
    model.script(saveName('Store').slice(1));
    const fallback = await agent(renamed, request(instruction));
    expect(fallback.result, fallback.result.message).toMatchObject({ success: true, message: 'Saved the name' });
    expect(fallback.status).toBe('MISS');
    expect(fallback.result.metadata).toMatchObject({ cacheHit: false, replayedSteps: 1 });
    // Step 1 replayed, step 2 failed its check; the model took over from there: two requests, not three.
    expect(model.requests).toHaveLength(2);
    const told = model.requests[0]!.raw;
    expect(told).toContain('type %name% into the Name field');
    expect(told).toContain('no longer fits');
    expect(told).toContain('button \\"Store\\"');
    expect(fallback.result.actions.map((a: { type: string; success: boolean }) => [a.type, a.success])).toEqual([
      ['act', true],
      ['act', false],
      ['act', true],
      ['done', true],
    ]);
    expect(await pageText(ctx.api, renamed, '#result')).toMatch(new RegExp(`saved ${SECRET.length} chars`));
    expect(fallback.cacheEntry?.cacheKey).toBe(stored.cacheEntry!.cacheKey);
    expect(fallback.cacheEntry!.entry.steps.map((s) => s.instruction)).toEqual(['type %name% into the Name field', 'click Store']);
    expect(fallback.cacheEntry!.entry.steps[1]!.targets).toEqual([{ role: 'button', name: 'Store' }]);

    // The rewritten entry now replays on the renamed page.
    model.requests.length = 0;
    const again = await agent(await ctx.sessionOn('agent-cache.html#renamed'), request(instruction));
    expect(again.status).toBe('HIT');
    expect(model.requests).toHaveLength(0);
  });

  it('a streamed run carries the cache entry in its finished event', async () => {
    const id = await ctx.sessionOn('agent-cache.html');
    model.script(saveName('Save'));
    const reply = await ctx.api.call('agentExecute', { id, body: request('Save my name (streamed)'), headers: { 'x-stream-response': 'true' } });
    const finished = finishedOf(reply);
    expect(finished.result).toMatchObject({ success: true });
    expect(finished.cacheEntry).toMatchObject({ cacheKey: expect.stringMatching(/^[a-f0-9]{64}$/), entry: { version: 1, kind: 'agent' } });
    expect(finished.cacheEntry.entry.steps).toHaveLength(2);
    expect(finished.result.metadata).toMatchObject({ cacheHit: false });
    expect(JSON.stringify(reply.events)).not.toContain(SECRET);
  });

  it('the offline model caches too: its repeat is a HIT', async () => {
    const body = {
      agentConfig: { model: 'builtin/offline' },
      executeOptions: { instruction: "type 'Grace' into the Name field, then click Save" },
      shouldCache: true,
    };
    const missId = await ctx.sessionOn('agent-cache.html');
    const miss = await agent(missId, body);
    expect(miss.result, miss.result.message).toMatchObject({ success: true });
    expect(miss.status).toBe('MISS');
    expect(miss.cacheEntry!.entry.steps).toHaveLength(2);
    const second = await ctx.sessionOn('agent-cache.html');
    const hit = await agent(second, body);
    expect(hit.status).toBe('HIT');
    expect(await pageText(ctx.api, second, '#result')).toBe('saved 5 chars starting other');
  });

  it('offline: a step that no longer fits goes back to the offline agent for the remaining steps; its refusal drops the entry', async () => {
    const body = {
      agentConfig: { model: 'builtin/offline' },
      executeOptions: { instruction: "type 'Ada' into the Name field, then click Save" },
      shouldCache: true,
    };
    expect((await agent(await ctx.sessionOn('agent-cache.html'), body)).status).toBe('MISS');
    const renamed = await agent(await ctx.sessionOn('agent-cache.html#renamed'), body);
    expect(renamed.status).toBe('MISS');
    expect(renamed.result).toMatchObject({ success: false, metadata: { stopReason: 'refused' } });
    // The offline agent was given only what was not replayed: "click Save", which this page no longer has.
    expect(renamed.result.actions.map((a: { instruction: string; success: boolean }) => [a.instruction, a.success])).toEqual([
      ["type 'Ada' into the Name field", true],
      ['click Save', false],
      ['click Save', false],
    ]);
    expect(renamed.result.message).toContain('click Save');
    expect(renamed.cacheEntry).toBeUndefined();
    // The stale entry is gone: the original page is a MISS again, not a replay.
    expect((await agent(await ctx.sessionOn('agent-cache.html'), body)).status).toBe('MISS');
  });

  it('an entry only for a run the server cached: none without shouldCache, with the bypass header or with caching off', async () => {
    const instruction = 'Save my name without caching';
    model.script(saveName('Save'));
    const plain = await agent(await ctx.sessionOn('agent-cache.html'), { ...request(instruction), shouldCache: false });
    expect(plain.result.success).toBe(true);
    expect(plain.cacheEntry).toBeUndefined();
    expect(plain.status).toBeNull();

    model.script(saveName('Save'));
    const bypass = await agent(await ctx.sessionOn('agent-cache.html'), request(instruction), { ...json, 'browserbase-cache-bypass': 'true' });
    expect(bypass.result.success).toBe(true);
    expect(bypass.cacheEntry).toBeUndefined();
    expect(bypass.status).toBeNull();
    expect(bypass.result.metadata).not.toHaveProperty('cacheHit');

    model.script(saveName('Save'));
    const off = await agent(await ctx.sessionOn('agent-cache.html', { enableCaching: false }), request(instruction));
    expect(off.result.success).toBe(true);
    expect(off.cacheEntry).toBeUndefined();
    expect(off.status).toBeNull();
    model.script(saveName('Save'));
    const after = await agent(await ctx.sessionOn('agent-cache.html'), request(instruction));
    expect(after.status).toBe('MISS');
  });
});
