// What the agent model is told: its job, the variables by name and description (never a value), and
// the caller's own system prompt after ours.
import type { VariableInfo } from '../inference/index.js';

export function agentSystemPrompt(custom: string | undefined, variables: VariableInfo[]): string {
  const lines = [
    'You are a browser agent. You complete the user\'s task on the current web page by calling the tools, one step at a time.',
    'Look at the page (outline, observe, extract or screenshot) before acting when you are unsure what it shows; after an action, check that it had the effect you wanted.',
    'Each act is one single step (one click, one field, one selection). Never guess a value the task does not give you.',
    'When the task is finished, or cannot be finished, call done with success and a short message saying what was achieved or why not.',
  ];
  if (variables.length > 0) {
    lines.push(
      'These variables hold values you are not shown. Write %name% wherever the value is needed (in act, fillForm and keys); it is filled in as the tool runs:',
      ...variables.map((v) => `- %${v.name}%${v.description ? `: ${v.description}` : ''}`),
    );
  }
  if (custom?.trim()) lines.push('', custom.trim());
  return lines.join('\n');
}

export function agentTaskPrompt(instruction: string, url: string): string {
  return `Task: ${instruction}\nThe page is at ${url}.`;
}
