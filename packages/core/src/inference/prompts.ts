// What an LLM is told for act, observe and extract. Variables appear only as %name% with their
// descriptions: values are substituted at execution time and never enter a prompt.
import type { JSONSchema } from '../models/json-schema.js';
import type { PageSnapshot } from '../snapshot/types.js';
import { ACTION_METHODS, type VariableInfo } from './types.js';

const OUTLINE_GUIDE = `The page is given as an outline: one line per node, indented by nesting. Interactive elements start with an id in square brackets, e.g. [12] button "Sign in"; quoted lines are text; "-> /path" is a link target; "…" marks omitted lines. "clickable" and "hoverable" mark plain elements that react to clicks or to the pointer (a menu to hover), "haspopup=menu" one that opens a menu.`;

const METHOD_GUIDE = `Methods and their arguments:
- click: []
- fill: [text] replaces the field's value
- type: [text] types at the caret, keeping existing text
- press: [key], e.g. ["Enter"], ["Tab"], ["Control+A"]
- hover: []
- scrollTo: ["<0-100>%"] scroll position within the element or page
- scrollIntoView: []
- nextChunk / prevChunk: [] scroll down / up by one screen
- selectOptionFromDropdown: [option label]
- check / uncheck: []
- dragAndDrop: [id of the element to drop onto]
- setInputFiles: [file name] on a file input: only a file named in the instruction (it must have been sent to the session)
For scrolling the whole page use elementId "".`;

export function actSystemPrompt(custom?: string): string {
  return withCustom(
    `You operate a web page for a user. Pick the single action that carries out the user's instruction on the current page.
${OUTLINE_GUIDE}
${METHOD_GUIDE}
Only use element ids shown in the outline. If the instruction cannot be carried out on this page (no element fits, or several fit equally), set elementId to null and say why in "reason"; otherwise leave "reason" out.`,
    custom,
  );
}

export function observeSystemPrompt(custom?: string): string {
  return withCustom(
    `You find elements on a web page. List the elements that match the user's request, best first, each with the action that would use it.
${OUTLINE_GUIDE}
${METHOD_GUIDE}
Only use element ids shown in the outline. Return an empty list when nothing matches.`,
    custom,
  );
}

export function extractSystemPrompt(custom?: string): string {
  return withCustom(
    `You read information from a web page and return it in the requested JSON shape.
${OUTLINE_GUIDE}
Use only what the page shows; use null or leave optional fields out rather than guessing. Fields that ask for an element id take the number in square brackets of the link meant.`,
    custom,
  );
}

export function actPrompt(instruction: string, snapshot: PageSnapshot, variables: VariableInfo[]): string {
  return [pageSection(snapshot), variableSection(variables), `Instruction: ${instruction}`].filter(Boolean).join('\n\n');
}

export function observePrompt(instruction: string | undefined, snapshot: PageSnapshot): string {
  return `${pageSection(snapshot)}\n\nFind: ${instruction ?? 'every element a user could interact with'}`;
}

export function extractPrompt(instruction: string | undefined, snapshot: PageSnapshot): string {
  return `${pageSection(snapshot)}\n\nExtract: ${instruction ?? 'the information described by the schema'}`;
}

function pageSection(snapshot: PageSnapshot): string {
  const cut = snapshot.truncated ? ' (cut to fit: lines unrelated to the instruction were omitted)' : '';
  return `Page ${snapshot.url}${cut}:\n${snapshot.text}`;
}

function variableSection(variables: VariableInfo[]): string {
  if (variables.length === 0) return '';
  const lines = variables.map((v) => `- %${v.name}%${v.description ? `: ${v.description}` : ''}`);
  return `Variables: where the instruction needs one of these values, put the placeholder itself (e.g. "%${variables[0]!.name}%") in arguments; the real value is filled in later.\n${lines.join('\n')}`;
}

function withCustom(prompt: string, custom?: string): string {
  return custom ? `${prompt}\n\nAdditional instructions:\n${custom}` : prompt;
}

const ACTION_PROPERTIES = {
  elementId: { type: 'string', description: 'Id from the outline, without brackets' },
  method: { type: 'string', enum: [...ACTION_METHODS] },
  arguments: { type: 'array', items: { type: 'string' } },
  description: { type: 'string', description: 'Short description of the element and action, e.g. "click the Sign in button"' },
} satisfies Record<string, JSONSchema>;

/**
 * An act answer names an element, or null to refuse: the id alone decides (see act-answer.ts), so
 * the other fields are only needed when acting and a refusal can leave them out.
 */
export const ACT_SCHEMA: JSONSchema = {
  type: 'object',
  properties: {
    ...ACTION_PROPERTIES,
    elementId: {
      type: ['string', 'null'],
      description: 'Id from the outline, without brackets; "" for the whole page (scrolling it, pressing a key); null when the instruction cannot be carried out',
    },
    reason: { type: 'string', description: 'Only with elementId null: why the instruction cannot be carried out on this page' },
  },
  required: ['elementId'],
};

export const OBSERVE_SCHEMA: JSONSchema = {
  type: 'object',
  properties: {
    elements: {
      type: 'array',
      items: { type: 'object', properties: ACTION_PROPERTIES, required: ['elementId', 'method', 'arguments', 'description'] },
    },
  },
  required: ['elements'],
};
