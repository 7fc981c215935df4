// The built-in offline model: resolves plain single-step instructions from the snapshot alone, with
// no key and no network. It answers only when the page makes the answer clear, and otherwise says why.
import type { UsageMeter } from '../../models/usage.js';
import type { SnapshotElement } from '../../snapshot/types.js';
import { GO_BACK, PAGE_ELEMENT_ID, type ChooseActionInput, type ChosenAction, type Inference, type ObserveInput } from '../types.js';
import { extractFromPage } from './extract.js';
import { describeElement, findTarget, rankTargets, readPage, type Page, type TargetKind } from './match-target.js';
import { parseInstruction, type Intent } from './parse-instruction.js';

type Choice = ChosenAction | { failure: string };

export function createBuiltinInference(modelId: string): Inference {
  return {
    identity: `builtin/${modelId}`,
    async chooseAction(input) {
      return timed(input.usage, () => chooseAction(input));
    },
    async observe(input) {
      return timed(input.usage, () => observe(input));
    },
    async extract(input) {
      return timed(input.usage, () => extractFromPage(input));
    },
  };
}

/** The built-in model spends no tokens, but its time is real and reported. */
function timed<T>(usage: UsageMeter, run: () => T): T {
  const started = performance.now();
  try {
    return run();
  } finally {
    usage.record(undefined, performance.now() - started);
  }
}

const UNDERSTOOD =
  'click, type/fill "…" into, select "…" from, check, uncheck, hover, press <key>, scroll up/down/to, drag … to …, go back';

function chooseAction({ instruction, snapshot, variables }: ChooseActionInput): Choice {
  const intent = parseInstruction(instruction);
  if (!intent) {
    return {
      failure: `The built-in offline model cannot read "${instruction}": it handles single steps (${UNDERSTOOD}). Configure a model in options.model for other instructions.`,
    };
  }
  for (const name of placeholders(intent)) {
    if (!variables.some((v) => v.name === name)) return { failure: `Variable %${name}% is not defined in options.variables` };
  }
  return resolve(readPage(snapshot), intent);
}

function resolve(page: Page, intent: Intent): Choice {
  switch (intent.kind) {
    case 'goBack':
      return { elementId: PAGE_ELEMENT_ID, method: GO_BACK, arguments: [], description: 'go back to the previous page' };
    case 'click':
      return onTarget(page, intent.target, 'clickable', 'click');
    case 'hover':
      return onTarget(page, intent.target, 'any', 'hover');
    case 'check':
    case 'uncheck':
      return onTarget(page, intent.target, 'checkable', intent.kind);
    case 'scrollIntoView':
      return onTarget(page, intent.target, 'any', 'scrollIntoView');
    case 'fill':
      return onTarget(page, intent.target, 'editable', 'fill', [intent.value], `with ${quoteValue(intent.value)}`);
    case 'select':
      return selectOption(page, intent.target, intent.option);
    case 'press':
      return intent.target
        ? onTarget(page, intent.target, 'any', 'press', [intent.key], intent.key)
        : { elementId: PAGE_ELEMENT_ID, method: 'press', arguments: [intent.key], description: `press ${intent.key}` };
    case 'scrollTo':
      return intent.target
        ? onTarget(page, intent.target, 'scrollable', 'scrollTo', [intent.position], `to ${intent.position}`)
        : { elementId: PAGE_ELEMENT_ID, method: 'scrollTo', arguments: [intent.position], description: `scroll the page to ${intent.position}` };
    case 'chunk': {
      const method = intent.direction === 'next' ? 'nextChunk' : 'prevChunk';
      const direction = intent.direction === 'next' ? 'down' : 'up';
      return intent.target
        ? onTarget(page, intent.target, 'scrollable', method)
        : { elementId: PAGE_ELEMENT_ID, method, arguments: [], description: `scroll the page ${direction} one screen` };
    }
    case 'drag': {
      const destination = findTarget(page, intent.destination, 'any');
      if ('failure' in destination) return destination;
      return onTarget(page, intent.target, 'any', 'dragAndDrop', [destination.element.id], `onto ${describeElement(destination.element)}`);
    }
  }
}

function onTarget(page: Page, phrase: string, kind: TargetKind, method: string, args: string[] = [], detail = ''): Choice {
  const found = findTarget(page, phrase, kind);
  return 'failure' in found ? found : onElement(found.element, method, args, detail);
}

function onElement(element: SnapshotElement, method: string, args: string[], detail: string): Choice {
  if (element.disabled) return { failure: `[${element.id}] ${describeElement(element)} is disabled` };
  const description = [method, describeElement(element), detail].filter(Boolean).join(' ');
  return { elementId: element.id, method, arguments: args, description };
}

function selectOption(page: Page, phrase: string, option: string): Choice {
  const found = findTarget(page, phrase, 'selectable');
  if ('failure' in found) return found;
  const listed = found.line?.options;
  // A %variable% option is only known at execution time; otherwise check it against the listed options.
  if (!listed || /^%[\w.-]+%$/.test(option)) return onElement(found.element, 'selectOptionFromDropdown', [option], quoteValue(option));
  const wanted = option.toLowerCase();
  const exact = listed.find((o) => o.toLowerCase() === wanted);
  const partial = listed.filter((o) => o.toLowerCase().includes(wanted));
  const label = exact ?? (partial.length === 1 ? partial[0] : undefined);
  if (!label) {
    const why = partial.length > 1 ? `matches several options (${partial.join(', ')})` : `is not one of its options (${listed.join(', ')})`;
    return { failure: `"${option}" ${why} in [${found.element.id}] ${describeElement(found.element)}` };
  }
  return onElement(found.element, 'selectOptionFromDropdown', [label], `"${label}"`);
}

function observe({ instruction, snapshot }: ObserveInput): ChosenAction[] {
  if (!instruction) return [...snapshot.elements.values()].filter((e) => e.role !== 'heading').map((e) => suggestion(e));
  const page = readPage(snapshot);
  const intent = parseInstruction(instruction);
  if (intent) {
    const chosen = resolve(page, intent);
    if (!('failure' in chosen)) return [chosen];
  }
  // "find the Delete buttons", or an instruction naming several candidates: list every good match.
  const phrase = instruction.replace(/^(?:find|list|show|get|locate|where is|where are)\s+(?:all\s+|every\s+)?/i, '');
  return rankTargets(page, phrase, 'any').map((c) => suggestion(c.element));
}

/** The natural action for an element, for observe results. */
function suggestion(element: SnapshotElement): ChosenAction {
  const method = ['checkbox', 'radio', 'switch'].includes(element.role) ? (element.checked === true ? 'uncheck' : 'check') : 'click';
  return { elementId: element.id, method, arguments: [], description: `${method} ${describeElement(element)}` };
}

function placeholders(intent: Intent): string[] {
  const values = intent.kind === 'fill' ? [intent.value] : intent.kind === 'select' ? [intent.option] : [];
  return values.flatMap((v) => [...v.matchAll(/%([\w.-]+)%/g)].map((m) => m[1]!));
}

function quoteValue(value: string): string {
  return /^%[\w.-]+%$/.test(value) ? value : `"${value}"`;
}
