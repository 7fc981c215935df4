// Which models count as computer-use capable (docs/decisions.md, "Agent modes: hybrid and cua"), and
// the key names computer-use models write, as Playwright presses them.
import { describe, expect, it } from 'vitest';
import { computerUseOf } from '../src/models/computer-use.js';
import { resolveModel } from '../src/models/resolve-model.js';
import { playwrightKey } from '../src/tools/coordinate-tools.js';

describe('computerUseOf', () => {
  it.each([
    ['openai/computer-use-preview', { protocol: 'openai' }],
    ['openai/computer-use-preview-2025-03-11', { protocol: 'openai' }],
    ['anthropic/claude-3-7-sonnet-20250219', { protocol: 'anthropic', anthropicTool: 'computer_20250124' }],
    ['anthropic/claude-sonnet-4-5', { protocol: 'anthropic', anthropicTool: 'computer_20250124' }],
    ['claude-sonnet-4-20250514', { protocol: 'anthropic', anthropicTool: 'computer_20250124' }],
    ['anthropic/claude-opus-4-1', { protocol: 'anthropic', anthropicTool: 'computer_20250124' }],
    ['anthropic/claude-haiku-4-5', { protocol: 'anthropic', anthropicTool: 'computer_20250124' }],
    ['anthropic/claude-opus-4-5', { protocol: 'anthropic', anthropicTool: 'computer_20251124' }],
    ['google/gemini-2.5-computer-use-preview-10-2025', { protocol: 'google' }],
  ])('%s has computer use', (name, support) => {
    expect(computerUseOf(resolveModel(name))).toEqual(support);
  });

  it.each([
    'openai/gpt-4.1-mini',
    'openai/gpt-4o',
    'anthropic/claude-3-5-haiku-latest',
    'anthropic/claude-3-5-sonnet-latest',
    'google/gemini-2.5-flash',
    'builtin/offline',
    // The same names behind another provider are not claimed.
    'bedrock/us.anthropic.claude-3-7-sonnet',
    'vertex/gemini-2.5-computer-use-preview-10-2025',
    'ollama/computer-use-preview',
  ])('%s has none', (name) => {
    expect(computerUseOf(resolveModel(name))).toBeUndefined();
  });
});

describe('playwrightKey', () => {
  it.each([
    ['CTRL', 'Control'],
    ['ctrl', 'Control'],
    ['cmd', 'Meta'],
    ['Return', 'Enter'],
    ['ENTER', 'Enter'],
    ['esc', 'Escape'],
    ['PgDn', 'PageDown'],
    ['space', 'Space'],
    ['ArrowLeft', 'ArrowLeft'],
    ['f5', 'F5'],
    ['a', 'a'],
    ['B', 'B'],
    ['backspace', 'Backspace'],
  ])('%s → %s', (name, key) => {
    expect(playwrightKey(name)).toBe(key);
  });
});
