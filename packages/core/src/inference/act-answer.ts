// How an LLM's act answer is read. The answer acts only when it names an element that exists: an
// element id from the outline, or "" (the page) with a method that applies to the page. An answer
// that names no element (null, missing, or "" with an element method) is a refusal, whatever else
// it says. No text field decides: small models fill a "failure" or "reason" field with "none",
// "n/a" or "ok" even when they found the element, and that must not read as a refusal.
import type { PageSnapshot } from '../snapshot/types.js';
import { PAGE_ELEMENT_ID, type ChosenAction } from './types.js';

/** Methods that make sense on the page as a whole, so may carry PAGE_ELEMENT_ID. */
export const PAGE_METHODS = new Set(['scrollTo', 'nextChunk', 'prevChunk', 'press']);

export type ActAnswer = ChosenAction | { failure: string };

interface RawAnswer {
  elementId?: unknown;
  method?: unknown;
  arguments?: unknown;
  description?: unknown;
  reason?: unknown;
}

/** True when the answer names no element: it is a refusal. */
export function isRefusal(value: unknown): boolean {
  const { elementId, method } = value as RawAnswer;
  if (elementId === null || elementId === undefined) return true;
  return elementId === PAGE_ELEMENT_ID && !PAGE_METHODS.has(String(method));
}

/** A refusal keeps only its reason, so nothing else in it (a method "none") is held against it. */
export function normalizeActAnswer(value: unknown): unknown {
  if (!value || typeof value !== 'object' || !isRefusal(value)) return value;
  const { reason } = value as RawAnswer;
  return { elementId: null, ...(typeof reason === 'string' && { reason }) };
}

/** What is wrong with an answer that acts, for the model's one retry; undefined when it is usable. */
export function actAnswerProblem(value: unknown, snapshot: PageSnapshot): string | undefined {
  if (isRefusal(value)) return undefined;
  const answer = value as RawAnswer;
  if (typeof answer.elementId !== 'string') return 'elementId must be a string id from the outline, "" for the page, or null to refuse';
  if (typeof answer.method !== 'string') return `method is required when elementId names an element`;
  return actionProblem({ elementId: answer.elementId, method: answer.method, arguments: stringsOf(answer.arguments), description: '' }, snapshot);
}

export function readActAnswer(value: unknown): ActAnswer {
  const answer = value as RawAnswer;
  if (isRefusal(answer)) {
    const reason = typeof answer.reason === 'string' && answer.reason.trim() ? answer.reason.trim() : 'the model found no element on the page for this instruction';
    return { failure: reason };
  }
  const method = answer.method as string;
  const elementId = answer.elementId as string;
  const description = typeof answer.description === 'string' && answer.description.trim() ? answer.description.trim() : `${method} ${elementId ? `[${elementId}]` : 'the page'}`;
  return { elementId, method, arguments: stringsOf(answer.arguments), description };
}

/** Why an action cannot run on this snapshot, or undefined when it can. */
export function actionProblem(action: ChosenAction, snapshot: PageSnapshot): string | undefined {
  const known = (id: string) => snapshot.elements.has(id);
  if (action.elementId === PAGE_ELEMENT_ID && !PAGE_METHODS.has(action.method)) {
    return `elementId is empty but ${action.method} needs an element: use an id shown in square brackets`;
  }
  if (action.elementId !== PAGE_ELEMENT_ID && !known(action.elementId)) {
    return `element id "${action.elementId}" is not in the page outline: use an id shown in square brackets, or null if no element fits`;
  }
  if (action.method === 'dragAndDrop' && !known(action.arguments[0] ?? '')) {
    return 'dragAndDrop needs the id of the element to drop onto as its one argument';
  }
  return undefined;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
