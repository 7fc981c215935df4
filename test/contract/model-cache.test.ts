// The act cache through the API: a string act is a MISS that stores the resolved Action, a repeat is
// a HIT replayed without the model, bypass skips it, a stale entry falls back to the model and is
// replaced, and enableCaching:false turns it off. Entries on disk hold %name%, never values.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server';
import { expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const cacheDir = mkdtempSync(join(tmpdir(), 'deckhand-contract-cache-'));
let model: ModelServer;
beforeAll(async () => {
  model = await startModelServer();
});
afterAll(async () => {
  await model.close();
  rmSync(cacheDir, { recursive: true, force: true });
});
const ctx = useContract({ DECKHAND_CACHE_DIR: cacheDir });

const llm = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-cache-test', baseURL: `${model.url}/v1` });

async function act(id: string, input: string, options: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const reply = await ctx.api.call('act', { id, body: { input, options }, headers: { 'x-stream-response': 'false', ...headers } });
  expectOk(reply);
  return { result: reply.body.data.result, status: reply.headers.get('browserbase-cache-status') };
}

/** The outline id the model would have to name for `line` (e.g. 'button "Go"'), read from what it was shown. */
function outlineId(raw: string, line: string): string {
  const match = new RegExp(`\\[(\\d+)\\] ${line.replace(/"/g, '\\\\"')}`).exec(raw);
  if (!match) throw new Error(`no ${line} in the outline`);
  return match[1]!;
}

/** Learns the id of `line` with a first call the model declines (a MISS that stores nothing). */
async function probeId(id: string, instruction: string, line: string, options: Record<string, unknown>): Promise<string> {
  model.script({ json: { elementId: null, reason: 'probe' } });
  const probe = await act(id, instruction, options);
  expect(probe.result.success).toBe(false);
  return outlineId(model.requests.at(-1)!.raw, line);
}

describe('act cache', () => {
  it('MISS stores the action, HIT replays it without the model, bypass skips the cache', async () => {
    const id = await ctx.sessionOn('forms.html');
    const options = { model: llm() };
    const goId = await probeId(id, 'press the Go button', 'button "Go"', options);
    model.script({ json: { elementId: goId, method: 'click', arguments: [], description: 'click the Go button' } });
    const first = await act(id, 'press the Go button', options);
    expect(first.result.success).toBe(true);
    expect(first.status).toBe('MISS');
    const calls = model.requests.length;

    const second = await act(id, 'press the Go button', options);
    expect(second.result.success).toBe(true);
    expect(second.status).toBe('HIT');
    expect(second.result.actions[0].selector).toBe(first.result.actions[0].selector);
    expect(model.requests.length).toBe(calls);
    expect((await pageText(ctx.api, id, '#log')).match(/clicked: go/g)).toHaveLength(2);

    model.script({ json: { elementId: goId, method: 'click', arguments: [], description: 'click the Go button' } });
    const bypassed = await act(id, 'press the Go button', options, { 'browserbase-cache-bypass': 'true' });
    expect(bypassed.result.success).toBe(true);
    expect(bypassed.status).toBeNull();
    expect(model.requests.length).toBe(calls + 1);
  });

  it('a stale entry (the cached selector no longer works) falls back to the model and is overwritten', async () => {
    const id = await ctx.sessionOn('forms.html');
    const first = await act(id, 'click Go');
    expect(first.status).toBe('MISS');
    const oldSelector = first.result.actions[0].selector;

    // Move the Go button into a wrapper: the cached xpath now names the disabled button instead.
    await changePage(id, () => {
      const go = document.getElementById('go')!;
      const wrapper = document.createElement('div');
      go.replaceWith(wrapper);
      wrapper.appendChild(go);
    });

    const healed = await act(id, 'click Go');
    expect(healed.status).toBe('MISS');
    expect(healed.result.success, healed.result.message).toBe(true);
    expect(healed.result.actions[0].selector).not.toBe(oldSelector);
    const again = await act(id, 'click Go');
    expect(again.status).toBe('HIT');
    expect(again.result.actions[0].selector).toBe(healed.result.actions[0].selector);
    expect(await pageText(ctx.api, id, '#log')).not.toContain('clicked: disabled');
  });

  it('a cached selector that now names another, clickable element is not replayed: the model answers', async () => {
    const id = await ctx.sessionOn('forms.html');
    const first = await act(id, 'click the Go button');
    expect(first.status).toBe('MISS');

    // A new button before Go: the cached xpath (body's first button) now names it.
    await changePage(id, () => {
      const decoy = document.createElement('button');
      decoy.textContent = 'Decoy';
      decoy.onclick = () => (window as unknown as { logLine(text: string): void }).logLine('clicked: decoy');
      document.getElementById('go')!.before(decoy);
    });

    const second = await act(id, 'click the Go button');
    expect(second.status).toBe('MISS');
    expect(second.result.success, second.result.message).toBe(true);
    expect(second.result.actions[0].selector).not.toBe(first.result.actions[0].selector);
    expect(await pageText(ctx.api, id, '#log')).toBe('clicked: go\nclicked: go');
  });

  it('stores %name% placeholders, never variable values, in cache files', async () => {
    const id = await ctx.sessionOn('forms.html');
    const secret = 'cache-secret-value-4711';
    const options = { variables: { who: { value: secret, description: 'a name' } } };
    const first = await act(id, 'fill %who% into Name', options);
    expect(first.result.success, first.result.message).toBe(true);
    expect(first.status).toBe('MISS');
    const second = await act(id, 'fill %who% into Name', options);
    expect(second.status).toBe('HIT');
    const files = readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    const contents = files.map((f) => readFileSync(join(f.parentPath, f.name), 'utf8')).join('\n');
    expect(contents).toContain('%who%');
    expect(contents).not.toContain(secret);
  });

  it('sends no cache status when the session turned caching off', async () => {
    const id = await ctx.sessionOn('forms.html', { enableCaching: false });
    for (let i = 0; i < 2; i++) {
      const { result, status } = await act(id, 'click Go');
      expect(result.success).toBe(true);
      expect(status).toBeNull();
    }
  });
});

/** Changes the session's page behind Deckhand's back, through the CDP URL of its browser session record. */
async function changePage(id: string, change: () => void): Promise<void> {
  const record = await ctx.api.call('getBrowserSession', { id });
  expectOk(record);
  const browser = await chromium.connectOverCDP(record.body.connectUrl);
  try {
    await browser.contexts()[0]!.pages()[0]!.evaluate(change);
  } finally {
    await browser.close();
  }
}
