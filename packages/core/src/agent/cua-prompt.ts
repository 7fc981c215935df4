// What a computer-use model is told besides its own tool's definition: it works in a browser page,
// the variables it may type by name (never a value), and the caller's own system prompt after ours.
import type { VariableInfo } from '../inference/index.js';

export function computerUseSystemPrompt(custom: string | undefined, variables: VariableInfo[]): string {
  const lines = [
    'You control a web browser page through the computer tool: the screenshots show the page, coordinates are pixels of them.',
    'Work one action at a time and look at the screenshot after each. Never guess a value the task does not give you.',
    'When the task is finished, or cannot be finished, stop calling the tool and say in a short message what was achieved or why not.',
  ];
  if (variables.length > 0) {
    lines.push(
      'These variables hold values you are not shown. Type %name% wherever the value is needed; it is filled in as it is typed:',
      ...variables.map((v) => `- %${v.name}%${v.description ? `: ${v.description}` : ''}`),
    );
  }
  if (custom?.trim()) lines.push('', custom.trim());
  return lines.join('\n');
}
