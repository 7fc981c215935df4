// What act, observe and extract ask of a model. Implemented by an LLM (llm.ts) and by the built-in
// offline model (builtin/), so operations never know which one answers.
import type { JSONSchema } from '../models/json-schema.js';
import type { UsageMeter } from '../models/usage.js';
import type { PageSnapshot } from '../snapshot/types.js';

export const ACTION_METHODS = [
  'click',
  'fill',
  'type',
  'press',
  'hover',
  'scrollTo',
  'scrollIntoView',
  'nextChunk',
  'prevChunk',
  'selectOptionFromDropdown',
  'check',
  'uncheck',
  'dragAndDrop',
  'setInputFiles',
] as const;

/**
 * Page-level actions target the page, not an element: goBack, and scrolling or key presses with no
 * element named. They carry this element id; the executor applies them to the page (or its root).
 */
export const PAGE_ELEMENT_ID = '';

/** Navigates back in history; always with PAGE_ELEMENT_ID and no arguments. Produced by the built-in model. */
export const GO_BACK = 'goBack';

export interface ChosenAction {
  /** A snapshot element id, or PAGE_ELEMENT_ID. */
  elementId: string;
  /** One of ACTION_METHODS, or GO_BACK. */
  method: string;
  /**
   * Method arguments. Values may hold `%name%` placeholders, substituted only at execution time.
   * dragAndDrop: [target element id]; scrollTo: ["<0-100>%"]; press: [key, e.g. "Enter"].
   */
  arguments: string[];
  description: string;
  /**
   * A step to run after this one succeeds, on the same page: "enter the password and log in", or a
   * search's Enter. Resolved against the same snapshot, so its element must already be there.
   */
  then?: ChosenAction;
}

export interface VariableInfo {
  name: string;
  description?: string;
}

export interface ChooseActionInput {
  instruction: string;
  snapshot: PageSnapshot;
  /** Names and descriptions only: a variable's value never reaches a model. */
  variables: VariableInfo[];
  signal: AbortSignal;
  usage: UsageMeter;
}

export interface ObserveInput {
  instruction?: string;
  snapshot: PageSnapshot;
  signal: AbortSignal;
  usage: UsageMeter;
}

export interface ExtractInput {
  instruction?: string;
  schema?: JSONSchema;
  snapshot: PageSnapshot;
  signal: AbortSignal;
  usage: UsageMeter;
}

export interface Inference {
  /** Which model answers, for caching and logs: provider/model (+ endpoint); never a credential. */
  readonly identity: string;
  chooseAction(input: ChooseActionInput): Promise<ChosenAction | { failure: string }>;
  observe(input: ObserveInput): Promise<ChosenAction[]>;
  /**
   * With a schema: an object shaped by it (non-object schemas are wrapped under `value` and unwrapped).
   * Instruction only: `{extraction: string}`. (With neither, the session reads the page text; no model is asked.)
   */
  extract(input: ExtractInput): Promise<unknown>;
}
