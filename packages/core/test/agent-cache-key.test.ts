// The agent cache key: the same run gives the same key however it was reached (fragment, query order,
// whitespace around the instruction, order of the variables); anything that changes which steps are
// right gives another key; a variable's value never takes part.
import { describe, expect, it } from 'vitest';
import { agentCacheKey, entryTexts, type AgentCacheEntry, type AgentCacheKeyInput } from '../src/agent/agent-cache-entry.js';

const base: AgentCacheKeyInput = {
  project: 'project-a',
  instruction: 'Save my name',
  startUrl: 'https://example.test/profile?b=2&a=1',
  mode: 'dom',
  modelIdentity: 'openai/gpt-4.1-mini',
  executionModelIdentity: 'builtin/offline',
  variableNames: ['name', 'pass'],
  toolNames: ['act', 'done'],
};

describe('agentCacheKey', () => {
  it('is the same for the same run however it was reached', () => {
    const key = agentCacheKey(base);
    expect(key).toMatch(/^[a-f0-9]{64}$/);
    expect(agentCacheKey({ ...base, instruction: '  Save my name ', startUrl: 'https://example.test/profile?a=1&b=2#top', variableNames: ['pass', 'name'], toolNames: ['done', 'act'] })).toBe(key);
  });

  it('changes with whatever changes which steps are right', () => {
    const key = agentCacheKey(base);
    const variants: Array<Partial<AgentCacheKeyInput>> = [
      { project: 'project-b' },
      { instruction: 'Save my name twice' },
      { startUrl: 'https://example.test/other' },
      { mode: 'hybrid' },
      { modelIdentity: 'anthropic/claude-sonnet-4-5' },
      { executionModelIdentity: 'openai/gpt-4.1-mini' },
      { systemPrompt: 'Be brief.' },
      { variableNames: ['name'] },
      { frameId: 'F1' },
      { toolNames: ['act', 'done', 'search'] },
    ];
    for (const variant of variants) expect(agentCacheKey({ ...base, ...variant }), JSON.stringify(variant)).not.toBe(key);
  });
});

describe('entryTexts', () => {
  it('covers every place a value could land: act arguments, targets, page-step inputs and the final message', () => {
    const entry: AgentCacheEntry = {
      version: 1,
      kind: 'agent',
      instruction: 'i',
      startUrl: 'u',
      mode: 'dom',
      modelIdentity: 'm',
      steps: [
        { tool: 'act', instruction: 'type', actions: [{ selector: 'xpath=/a', method: 'fill', arguments: ['VALUE-1'] }], targets: [{ role: 'textbox', name: 'VALUE-2' }] },
        { tool: 'keys', input: { method: 'type', value: 'VALUE-3' } },
      ],
      result: { success: true, message: 'VALUE-4' },
      createdAt: 'now',
    };
    const texts = entryTexts(entry).join('\n');
    for (const value of ['VALUE-1', 'VALUE-2', 'VALUE-3', 'VALUE-4']) expect(texts).toContain(value);
  });
});
