// The built-in offline model: resolves plain single-step instructions from the snapshot alone, with
// no key and no network. It answers only when the page makes the answer clear, and otherwise says
// why, naming the candidates: it never falls back to an element the instruction did not name.
import type { UsageMeter } from '../../models/usage.js';
import type { SnapshotElement } from '../../snapshot/types.js';
import { GO_BACK, PAGE_ELEMENT_ID, type ChooseActionInput, type ChosenAction, type Inference, type ObserveInput } from '../types.js';
import { fitsNeed, isCheckable, isEditable, isSelectable } from './element-kinds.js';
import { extractFromPage } from './extract.js';
import { findTarget, queryFor, rankTargets, type Match, type MatchResult, type TargetQuery } from './match-target.js';
import { dateOrder, NATIVE_TYPES, nativeValue, numberWithUnit } from './native-values.js';
import { describeElement, readPage, type Page } from './page-view.js';
import { readValue } from './page-values.js';
import { parseInstruction, type Intent } from './parse-instruction.js';
import { applyTransform } from './step-values.js';
import { parseTarget } from './target-phrase.js';
import { tokens } from './words.js';

type Choice = ChosenAction | { failure: string; /** No element fits (see MatchFailure). */ none?: true };

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
  'click, type/enter "…" into, select/choose, check/uncheck, turn on/off, enable/disable, expand/collapse, open/close, hover, press <key>, search for "…", scroll, drag … to …, go back, or a control named by its verb ("add …", "delete …", "accept …")';

function chooseAction({ instruction, snapshot, variables }: ChooseActionInput): ChosenAction | { failure: string } {
  const intent = parseInstruction(instruction);
  for (const name of placeholders(intent)) {
    if (!variables.some((v) => v.name === name)) return { failure: `Variable %${name}% is not defined in options.variables` };
  }
  const chosen = resolve(readPage(snapshot), intent);
  if (!('failure' in chosen)) return chosen;
  const failure = unread(intent, chosen)
    ? `The built-in offline model cannot read "${instruction}" as a step it knows, and nothing on the page is named so (${chosen.failure}). It handles single steps (${UNDERSTOOD}). Configure a model in options.model for other instructions.`
    : chosen.failure;
  return { failure };
}

/** Whether the instruction fell through to "its verb names the control", with nothing so named. */
function unread(intent: Intent, chosen: { none?: true }): boolean {
  return intent.kind === 'click' && intent.unknownVerb === true && chosen.none === true;
}

/** What the steps of one instruction read so far ("copy …" before "paste it into …"). */
interface Memory {
  read?: string;
  /** The element the step before acted on: "type "x" into it". */
  element?: string;
}

const PRONOUN_TARGET = /^(?:it|there|that|this|that field|this field|the same field)$/i;

function resolve(page: Page, intent: Intent, memory: Memory = {}): Choice {
  const chosen = resolveOne(page, intent, memory);
  if ('failure' in chosen && chosen.none && intent.otherwise) {
    const other = resolve(page, intent.otherwise, memory);
    return 'failure' in other && other.none ? chosen : other;
  }
  return chosen;
}

function resolveOne(page: Page, intent: Intent, memory: Memory): Choice {
  switch (intent.kind) {
    case 'goBack':
      return { elementId: PAGE_ELEMENT_ID, method: GO_BACK, arguments: [], description: 'go back to the previous page' };
    case 'steps':
      return steps(page, intent.steps);
    case 'refuse':
      return { failure: `Cannot carry out "${intent.words}": ${intent.why}` };
    case 'read':
      return { failure: `"${intent.target}" is read only for the step after it ("…, paste it into <field>")` };
    case 'click':
      return on(page, { ...queryFor('click', intent.target, intent.verb), byOption: true, byAddress: intent.goes === true }, (m) => clickLike(m, intent.literal === true));
    case 'hover':
      return on(page, queryFor('hover', intent.target), (m) => act(m.element, 'hover'));
    case 'choose':
      return on(page, chooseQuery(intent.target, intent.verb), (m) => partOfOption(m, intent.target) ?? clickLike(m, false));
    case 'toggle':
      return on(page, queryFor('toggle', intent.target), (m) => toggle(m.element, intent.on));
    case 'expand':
      return on(page, queryFor('expand', intent.target), (m) => expand(m.element, intent.open));
    case 'scrollIntoView':
      return on(page, queryFor('any', intent.target), (m) => act(m.element, 'scrollIntoView'));
    case 'fill': {
      const value = intent.source ? readValue(page, intent.source, memory.read) : { value: intent.value };
      if ('failure' in value) return { failure: `Cannot read the value to type: ${value.failure}` };
      const before = PRONOUN_TARGET.test(intent.target.trim()) && memory.element ? page.snapshot.elements.get(memory.element) : undefined;
      if (before && isEditable(before)) return fillField(before, applyTransform(value.value, intent.transform));
      return fill(page, intent.target, applyTransform(value.value, intent.transform), intent.verb, intent.search === true);
    }
    case 'set':
      return set(page, intent.target, applyTransform(intent.value, intent.transform), intent.described === true);
    case 'select':
      return on(page, queryFor('select', intent.target), (m) => closedList(m.element) ?? selectOption(m.element, intent.option));
    case 'press':
      return intent.target
        ? on(page, queryFor('any', intent.target), (m) => act(m.element, 'press', [intent.key], intent.key))
        : { elementId: PAGE_ELEMENT_ID, method: 'press', arguments: [intent.key], description: `press ${intent.key}` };
    case 'scrollTo':
      return intent.target
        ? on(page, queryFor('scroll', intent.target), (m) => act(m.element, 'scrollTo', [intent.position], `to ${intent.position}`))
        : { elementId: PAGE_ELEMENT_ID, method: 'scrollTo', arguments: [intent.position], description: `scroll the page to ${intent.position}` };
    case 'chunk': {
      const method = intent.direction === 'next' ? 'nextChunk' : 'prevChunk';
      const direction = intent.direction === 'next' ? 'down' : 'up';
      return intent.target
        ? on(page, queryFor('scroll', intent.target), (m) => act(m.element, method))
        : { elementId: PAGE_ELEMENT_ID, method, arguments: [], description: `scroll the page ${direction} one screen` };
    }
    case 'upload':
      return upload(page, intent.file, intent.target);
    case 'drag': {
      const destination = findTarget(page, queryFor('any', intent.destination));
      if ('failure' in destination) return destination;
      return on(page, queryFor('any', intent.target), (m) => act(m.element, 'dragAndDrop', [destination.element.id], `onto ${describeElement(destination.element)}`));
    }
  }
}

function on(page: Page, query: TargetQuery, then: (m: Match) => Choice): Choice {
  const found: MatchResult = findTarget(page, query);
  return 'failure' in found ? found : then(found);
}

/**
 * Steps resolved on the same page, all before any is run (a step's page must already show its
 * target), so a step that cannot be done leaves the page untouched. A "copy" step reads its value
 * for the steps after it and runs nothing.
 */
function steps(page: Page, parts: Intent[]): Choice {
  const chosen: ChosenAction[] = [];
  const memory: Memory = {};
  for (const [i, part] of parts.entries()) {
    if (part.kind === 'read') {
      const read = readValue(page, { kind: 'textOf', target: part.target }, undefined);
      if ('failure' in read) return { failure: `Step ${i + 1} of ${parts.length} (copy ${part.target}): ${read.failure}; nothing was done` };
      memory.read = read.value;
      continue;
    }
    const step = resolve(page, part, memory);
    if ('failure' in step) return { failure: `Step ${i + 1} of ${parts.length}: ${step.failure}; nothing was done`, ...(step.none && { none: step.none }) };
    chosen.push(step);
    memory.element = step.elementId;
  }
  if (chosen.length === 0) return { failure: 'The instruction only reads values and does nothing with them on the page' };
  return chain(chosen);
}

function chain(actions: ChosenAction[]): ChosenAction {
  const [first, ...rest] = actions;
  return rest.length === 0 ? first! : after(first!, chain(rest));
}

/** `action` and the steps it already chains (a list's items), then `next`: no step dropped. */
function after(action: ChosenAction, next: ChosenAction): ChosenAction {
  return { ...action, then: action.then ? after(action.then, next) : next };
}

/** Clicking, or what clicking means for the element found: its option for a dropdown, ticked for a box. */
function clickLike(m: Match, literal: boolean): Choice {
  if (m.option !== undefined) return selectOption(m.element, m.option);
  // "choose New as the condition" with no option New: a click on the list itself would choose whatever lies under its middle.
  if (!literal && isSelectable(m.element)) return { failure: `[${m.element.id}] ${describeElement(m.element)} was named, but none of its options${m.element.options?.length ? ` (${m.element.options.slice(0, 12).join(', ')})` : ''}; say which option to choose` };
  if (!literal && isCheckable(m.element)) return toggle(m.element, true);
  return act(m.element, 'click');
}

/**
 * "choose blue" when the list's option is "Light blue": an option is chosen only when named whole (a remark in
 * brackets aside), as a list's options are (act/listbox-option.ts); else it is named back, nothing chosen.
 */
function partOfOption(m: Match, phrase: string): Choice | undefined {
  // "the third option" names it by its place.
  if (m.element.role !== 'option' || parseTarget(phrase).some((reading) => reading.ordinal !== undefined)) return undefined;
  const asked = new Set(tokens(phrase));
  if (tokens(m.element.name.replace(/\([^)]*\)/g, ' ')).every((w) => asked.has(w))) return undefined;
  return { failure: `"${phrase}" names no option whole (did you mean [${m.element.id}] ${describeElement(m.element)}?); nothing was chosen` };
}

/** A combobox drawn without an input or a <select> lists its options only once opened: nothing to choose on this snapshot. */
function closedList(element: SnapshotElement): Choice | undefined {
  if (element.role !== 'combobox' || element.tag === 'input' || element.tag === 'select') return undefined;
  return { failure: `[${element.id}] ${describeElement(element)} shows its options only once opened: open it, then choose (agentExecute does both)` };
}

function chooseQuery(phrase: string, verb: TargetQuery['verb']): TargetQuery {
  return {
    phrase,
    accepts: (e) => isCheckable(e) || ['tab', 'option', 'treeitem'].includes(e.role) || isSelectable(e),
    label: 'checkbox, radio button, tab or option',
    byOption: true,
    ...(verb && { verb }),
  };
}

function toggle(element: SnapshotElement, on: boolean): Choice {
  if (isCheckable(element)) return act(element, on ? 'check' : 'uncheck');
  // A toggle button (aria-pressed): clicked only when it is not already as asked.
  if ((element.pressed === true) === on) return { failure: `[${element.id}] ${describeElement(element)} is already ${on ? 'on' : 'off'}` };
  return act(element, 'click', [], on ? 'to turn it on' : 'to turn it off');
}

function expand(element: SnapshotElement, open: boolean): Choice {
  if (element.expanded === open) return { failure: `[${element.id}] ${describeElement(element)} is already ${open ? 'expanded' : 'collapsed'}` };
  return act(element, 'click', [], open ? 'to expand it' : 'to collapse it');
}

function fill(page: Page, target: string, value: string, verb: TargetQuery['verb'], search: boolean): Choice {
  const query: TargetQuery = search
    ? { phrase: target, accepts: (e) => isEditable(e) && isSearchField(e), label: 'search field', ...(verb && { verb }) }
    : queryFor('edit', target, verb);
  return on(page, query, (m) => {
    const typed = fillField(m.element, value);
    if ('failure' in typed || !search) return typed;
    return { ...typed, then: { elementId: m.element.id, method: 'press', arguments: ['Enter'], description: `press Enter in ${describeElement(m.element)} to search` } };
  });
}

function isSearchField(e: SnapshotElement): boolean {
  return e.role === 'searchbox' || /\b(search|find|filter|look ?up)\b/i.test(`${e.name} ${e.placeholder ?? ''}`);
}

/**
 * "set X to V": a field takes V, a dropdown its option V, a switch or box V = on/off, a slider or
 * spinner the number V. `described`: V describes a value without giving it, so no field takes it.
 */
function set(page: Page, target: string, value: string, described: boolean): Choice {
  const state = /^(on|true|yes|enabled?|checked)$/i.test(value) ? true : /^(off|false|no|disabled?|unchecked)$/i.test(value) ? false : undefined;
  const query: TargetQuery = {
    phrase: target,
    accepts: (e) => isEditable(e) || isSelectable(e) || e.role === 'slider' || (state !== undefined && fitsNeed(e, 'toggle')),
    label: 'field, dropdown, slider or switch',
  };
  return on(page, query, (m) => {
    if (isSelectable(m.element)) return selectOption(m.element, value);
    if (isEditable(m.element) || m.element.role === 'slider') {
      if (described) return { failure: `"${value}" describes a value without giving it; quote the value to type it into [${m.element.id}] ${describeElement(m.element)}` };
      return fillField(m.element, value);
    }
    return toggle(m.element, state!);
  });
}

/**
 * A value typed into a field, in the form its input type takes (a date input takes 2010-05-20, not 05/20/2010).
 * A number with a unit goes into a number field or slider as the number when the field shows that unit
 * ("72.5 kg" into "Weight kg"); a percentage on a slider is left for the slider's own range to read (fill-check.ts).
 */
function fillField(element: SnapshotElement, value: string): Choice {
  const type = element.inputType ?? (element.role === 'slider' ? 'range' : element.role === 'spinbutton' ? 'number' : undefined);
  if (/^%[\w.-]+%$/.test(value) || !type || !NATIVE_TYPES.has(type)) return act(element, 'fill', [value], `with ${quoteValue(value)}`);
  const unit = (type === 'number' || type === 'range') && numberWithUnit(value);
  if (unit && unitShown(element, unit.unit)) return fillField(element, unit.number);
  if (unit && type === 'range' && unit.unit === '%') return act(element, 'fill', [`${nativeValue(type, unit.number)}%`], `with ${quoteValue(value)}`);
  if (unit) return { failure: `"${value}" is in ${unit.unit}, which [${element.id}] ${describeElement(element)} does not show beside it: give the number the field takes` };
  const native = nativeValue(type, value, dateOrder(element.name));
  if (native === undefined) return { failure: `"${value}" cannot be read as a ${type} value for [${element.id}] ${describeElement(element)}` };
  return act(element, 'fill', [native], `with ${quoteValue(native)}`);
}

/** Whether the field's name shows the unit as a word of its own ("Weight kg", "Discount (%)"), and not as one it refuses ("Weight in lb (not kg)"). */
function unitShown(element: SnapshotElement, unit: string): boolean {
  const escaped = unit.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const shown = new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(element.name);
  const refused =
    new RegExp(`\\b(?:not|no|never|instead of|rather than|except)\\s+(?:in\\s+)?${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(element.name) ||
    new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:\\s+values?)?\\s+(?:are\\s+|is\\s+)?not\\s+(?:accepted|allowed|used)`, 'iu').test(element.name);
  return shown && !refused;
}

/**
 * The file goes on the file field named, else on the page's only one (hidden ones count: a styled button
 * usually hides the real field); whether it was sent is checked as it is set.
 */
function upload(page: Page, file: string, target: string | undefined): Choice {
  const isFileField = (e: SnapshotElement) => e.inputType === 'file';
  const setFile = (e: SnapshotElement) => act(e, 'setInputFiles', [file], quoteValue(file));
  if (target) {
    // "the Attachment field": a file input is no text field, so the kind word is left to the check below.
    const phrase = target.replace(/\s+(?:field|input|box)$/i, '');
    // A file field of that name first (a hidden one shares its name with the label that shows it).
    const field = findTarget(page, { phrase, accepts: isFileField, label: 'file field' });
    if (!('failure' in field)) return setFile(field.element);
    return on(page, queryFor('any', phrase), (m) => (isFileField(m.element) ? setFile(m.element) : { failure: `[${m.element.id}] ${describeElement(m.element)} is not a file field` }));
  }
  const fields = [...page.snapshot.elements.values()].filter(isFileField);
  if (fields.length === 1) return setFile(fields[0]!);
  if (fields.length === 0) return { failure: `The page has no file field to upload "${file}" into` };
  const named = fields.map((e) => `[${e.id}] ${describeElement(e)}`).join(', ');
  return { failure: `The page has ${fields.length} file fields (${named}): name the one to upload "${file}" into` };
}

function act(element: SnapshotElement, method: string, args: string[] = [], detail = ''): Choice {
  if (element.disabled) return { failure: `[${element.id}] ${describeElement(element)} is disabled` };
  if (element.covered) return { failure: `[${element.id}] ${describeElement(element)} is behind a dialog or overlay; close that first` };
  const description = [method, describeElement(element), detail].filter(Boolean).join(' ');
  return { elementId: element.id, method, arguments: args, description };
}

function selectOption(element: SnapshotElement, option: string): Choice {
  const listed = element.options;
  // A %variable% option is only known at execution time; otherwise check it against the listed options.
  if (!listed || /^%[\w.-]+%$/.test(option)) return act(element, 'selectOptionFromDropdown', [option], quoteValue(option));
  // The option named whole (but for case): "blue" is not "Light blue", which is named back as a candidate.
  const wanted = option.toLowerCase();
  const alike = listed.filter((o) => o.toLowerCase() === wanted);
  const label = listed.find((o) => o === option) ?? (alike.length === 1 ? alike[0] : undefined);
  if (alike.length > 1 && !label) return { failure: `"${option}" names ${alike.length} options but for case (${alike.join(', ')}) in [${element.id}] ${describeElement(element)}; quote the one meant` };
  if (!label) {
    const partial = listed.filter((o) => o.toLowerCase().includes(wanted));
    const why = partial.length > 0 ? `names no option whole (did you mean ${partial.map((o) => `"${o}"`).join(' or ')}?)` : `is not one of its options (${listed.join(', ')})`;
    return { failure: `"${option}" ${why} in [${element.id}] ${describeElement(element)}` };
  }
  return act(element, 'selectOptionFromDropdown', [label], `"${label}"`);
}

function observe({ instruction, snapshot }: ObserveInput): ChosenAction[] {
  if (!instruction) return [...snapshot.elements.values()].filter((e) => e.role !== 'heading').map((e) => suggestion(e));
  const page = readPage(snapshot);
  const chosen = resolve(page, parseInstruction(instruction));
  if (!('failure' in chosen)) return [withoutSteps(chosen)];
  // "find the Delete buttons", or an instruction naming several candidates: list every good match.
  const phrase = instruction.replace(/^(?:find|list|show|get|locate|where is|where are)\s+(?:all\s+|every\s+)?/i, '');
  return rankTargets(page, queryFor('any', phrase)).map((m) => suggestion(m.element));
}

/** observe answers one action per element. */
function withoutSteps({ then: _next, ...action }: ChosenAction): ChosenAction {
  return action;
}

/** The natural action for an element, for observe results. */
function suggestion(element: SnapshotElement): ChosenAction {
  const method = isCheckable(element) ? (element.checked === true ? 'uncheck' : 'check') : 'click';
  return { elementId: element.id, method, arguments: [], description: `${method} ${describeElement(element)}` };
}

function placeholders(intent: Intent): string[] {
  if (intent.kind === 'steps') return [...intent.steps, ...(intent.otherwise ? [intent.otherwise] : [])].flatMap(placeholders);
  const values = intent.kind === 'fill' || intent.kind === 'set' ? [intent.value] : intent.kind === 'select' ? [intent.option] : intent.kind === 'upload' ? [intent.file] : [];
  return values.flatMap((v) => [...v.matchAll(/%([\w.-]+)%/g)].map((m) => m[1]!));
}

function quoteValue(value: string): string {
  return /^%[\w.-]+%$/.test(value) ? value : `"${value}"`;
}
