// The built-in model's grammar: plain single-step instructions ("click Sign in", "type "x" into
// Email", "turn on dark mode", "add the Blue Mug to the cart"), and two or three of them joined by
// "and" or "then". An instruction whose verb is not one of these names its control by that verb
// ("delete Bob", "accept all cookies"), so the verb is looked for on the element.
import type { VerbWords } from './match-target.js';
import { bareValue, maskQuotes, takeTransform, type Transform, type ValueSource } from './step-values.js';
import { stems, tokens } from './words.js';

export type Intent = (
  | { kind: 'goBack' }
  | { kind: 'press'; key: string; target?: string }
  | { kind: 'scrollTo'; position: string; target?: string }
  | { kind: 'chunk'; direction: 'next' | 'prev'; target?: string }
  | { kind: 'scrollIntoView'; target: string }
  | { kind: 'drag'; target: string; destination: string }
  /** A file sent to the session, set on the file field `target` names (or the page's only one). */
  | { kind: 'upload'; file: string; target?: string }
  /**
   * Type a value; `search`: into a search field, then press Enter. `source`: the value is read from
   * the page (or an earlier step) instead; `transform`: applied to the value before it is typed.
   */
  | { kind: 'fill'; value: string; target: string; verb?: VerbWords; search?: boolean; source?: ValueSource; transform?: Transform }
  | { kind: 'select'; option: string; target: string }
  /** "set X to V": a field (fill), a dropdown (its option V) or a switch (V is on or off). `described`: V is no literal, so no field takes it. */
  | { kind: 'set'; value: string; target: string; described?: true; transform?: Transform }
  /** "copy the text in X": read X for a later step's "it". */
  | { kind: 'read'; target: string }
  /** Words the model cannot carry out, and why: the step is refused before anything is done. */
  | { kind: 'refuse'; words: string; why: string }
  | { kind: 'toggle'; on: boolean; target: string }
  | { kind: 'expand'; open: boolean; target: string }
  /** "select HF2", "choose Express delivery": a box, a radio button, a tab or a dropdown's option. */
  | { kind: 'choose'; target: string; verb: VerbWords }
  | { kind: 'hover'; target: string }
  /**
   * `literal`: the instruction said click (or tap, press): a checkbox is clicked, not merely made sure of.
   * `goes`: the instruction goes somewhere (open, go to, follow), so a link may be known by its address.
   */
  | { kind: 'click'; target: string; verb?: VerbWords; literal?: boolean; goes?: boolean; unknownVerb?: boolean }
  | { kind: 'steps'; steps: Intent[] }
) & {
  /** The reading to try when this one finds no element at all (a tie is a refusal, not a reason to read on). */
  otherwise?: Intent;
};

/** A value: quoted ("…", '…', “…”) or a %variable%. */
const VALUE = String.raw`(?:"([^"]*)"|'([^']*)'|“([^”]*)”|(%[\w.-]+%))`;
/** The same, or a bare run of words without quotes (only where a keyword such as "into" ends it). */
const LOOSE_VALUE = String.raw`(?:${VALUE}|([^"“”]+?))`;
const TYPE = String.raw`(?:type|enter|input|write|put|key in|insert|fill in|fill)`;
const NUMBER = String.raw`[-+]?\d[\d,]*(?:\.\d+)?`;

const KEYS: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  escape: 'Escape',
  esc: 'Escape',
  backspace: 'Backspace',
  delete: 'Delete',
  space: 'Space',
  spacebar: 'Space',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  'page up': 'PageUp',
  'page down': 'PageDown',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  home: 'Home',
  end: 'End',
};
const MODIFIERS: Record<string, string> = { ctrl: 'Control', control: 'Control', shift: 'Shift', alt: 'Alt', option: 'Alt', cmd: 'Meta', command: 'Meta', meta: 'Meta' };

type Rule = [RegExp, (m: RegExpExecArray, text: string) => Intent | undefined];

/** "the text of 'Learn more'": a noun before a quoted value that says where to read a value, not what the value is. */
const VALUE_NOUN_ENDS = /\b(?:of|from|in|on|at|by|for|to|under|below|above|near|inside|beside|after|before|within|with|same|copied)$/i;

const verb = (text: string, required: boolean): VerbWords => ({ words: stems(text), required });

const RULES: Rule[] = [
  [/^(?:go|navigate|head) back(?: to the previous page)?$|^(?:go|navigate) to the previous page$/i, () => ({ kind: 'goBack' })],
  // "upload report.pdf", "attach "my cv.pdf" to Resume": a file by name (quoted, or a word with an extension).
  [
    new RegExp(String.raw`^(?:upload|attach)(?: the file)? (?:${VALUE}|([^\s"“”]+\.[A-Za-z0-9]{1,10}))(?: (?:to|into|in|on|as|using|with) (.+))?$`, 'i'),
    (m) => ({ kind: 'upload', file: valueOf(m), target: m[6] }),
  ],
  [
    /^scroll (?:the page )?(down|up)(?: (?:by )?(?:one|a) (?:page|screen))?(?: (?:in|within|inside) (.+))?$/i,
    (m) => ({ kind: 'chunk', direction: m[1]!.toLowerCase() === 'down' ? 'next' : 'prev', target: m[2] }),
  ],
  [
    /^scroll (?:the page )?to (?:the )?(top|bottom)(?: of (?:the page|(.+)))?$/i,
    (m) => ({ kind: 'scrollTo', position: m[1]!.toLowerCase() === 'top' ? '0%' : '100%', target: m[2] }),
  ],
  // "scroll the textarea to the bottom": that element's own scroll.
  [/^scroll (?!the page\b)(.+?) (?:all the way )?to (?:the |its )?(top|bottom|end|start)$/i, (m) => ({ kind: 'scrollTo', position: /top|start/i.test(m[2]!) ? '0%' : '100%', target: m[1]! })],
  [/^scroll (?:the page )?to (\d{1,3})\s?%$/i, (m) => (Number(m[1]) <= 100 ? { kind: 'scrollTo', position: `${Number(m[1])}%` } : undefined)],
  [/^scroll (.+?) into view$|^scroll (?:down |up )?to (.+)$/i, (m) => ({ kind: 'scrollIntoView', target: (m[1] ?? m[2])! })],
  [
    /^(?:press|hit|tap) (?:the )?(.+?)(?: key)?(?: (?:in|on|into|inside) (.+))?$/i,
    (m) => {
      const key = keyName(m[1]!);
      return key ? { kind: 'press', key, target: m[2] } : undefined;
    },
  ],
  [/^(?:hover|mouse)(?: over| on)? (.+)$|^(?:move the mouse|point) (?:over|at|to) (.+)$/i, (m) => ({ kind: 'hover', target: (m[1] ?? m[2])! })],
  [/^drag (.+?) (?:to|onto|into|over) (.+)$/i, (m) => ({ kind: 'drag', target: m[1]!, destination: m[2]! })],
  // Searching: type into the search field, then submit.
  [new RegExp(`^search (.+?) for ${LOOSE_VALUE}$`, 'i'), (m, text) => search(m, 2, m[1]!, text)],
  [new RegExp(`^search (?:for )?${LOOSE_VALUE}(?: (?:in|on|within) (.+))?$`, 'i'), (m, text) => search(m, 1, m[6] ?? '', text)],
  [new RegExp(`^search (?:for )?${VALUE} (.+)$`, 'i'), (m, text) => search(m, 1, m[5]!, text)],
  [new RegExp(`^filter (?:(.+?) )?by ${VALUE}$`, 'i'), (m) => ({ kind: 'fill', value: valueOf(m, 2), target: m[1] ?? '', verb: verb('filter', false) })],
  // Typing: the quoted string after a verb of typing is the value; the rest names the field.
  [new RegExp(`^${TYPE} ${VALUE} (?:in|into|inside|on|to) (.+)$`, 'i'), (m) => ({ kind: 'fill', value: valueOf(m), target: m[5]! })],
  [new RegExp(`^${TYPE} ${VALUE} as (.+)$`, 'i'), (m) => ({ kind: 'fill', value: valueOf(m), target: m[5]! })],
  // "enter the note 'Leave at door, ring "twice"' into Delivery note": a noun saying what the quoted value is.
  [
    new RegExp(`^${TYPE} (?:the|a|an|my|this) (\\p{L}[\\p{L}-]*(?: \\p{L}[\\p{L}-]*)?) ${VALUE} (?:in|into|inside|on|to) (.+)$`, 'iu'),
    (m) => (VALUE_NOUN_ENDS.test(m[1]!) ? undefined : { kind: 'fill', value: valueOf(m, 2), target: m[6]! }),
  ],
  [
    new RegExp(`^(?:fill(?: in| out)?|populate|complete) (.+?) (?:with|as) ${LOOSE_VALUE}$`, 'i'),
    (m) => (m[6] === undefined ? { kind: 'fill', value: valueOf(m, 2), target: m[1]! } : typeBare(m[6], m[1]!)),
  ],
  [new RegExp(`^${TYPE} ([^"“”]+?) ${VALUE}$`, 'i'), (m) => ({ kind: 'fill', value: valueOf(m, 2), target: m[1]! })],
  [new RegExp(`^${TYPE} ([^"“”%]+) into (.+)$`, 'i'), (m) => typeBare(m[1]!, m[2]!)],
  [new RegExp(`^${TYPE} ([^"“”%]+?) (?:in|inside) (.+)$`, 'i'), (m) => typeBare(m[1]!, m[2]!)],
  [new RegExp(`^${TYPE} ([^"“”%]+?) as (.+)$`, 'i'), (m) => typeBare(m[1]!, m[2]!)],
  // "paste it into the textbox": what an earlier step read (or the text of what it names).
  [/^paste (.+?) (?:in|into|inside|to) (.+)$/i, (m) => typeBare(m[1]!, m[2]!)],
  [new RegExp(`^${TYPE} ${VALUE}$`, 'i'), (m) => ({ kind: 'fill', value: valueOf(m), target: '' })],
  // "confirm the password with "x"": a field named by the whole phrase takes the value; else the verb names a control.
  [new RegExp(`^(\\p{L}+(?: .+?)?) with ${VALUE}$`, 'iu'), (m, text) => ({ kind: 'fill', value: valueOf(m, 2), target: m[1]!, otherwise: actOn(text) })],
  [
    new RegExp(`^(?:set|change|update|switch) (.+?) (?:to|as) ${LOOSE_VALUE}$`, 'i'),
    (m, text) => setBare(m, text),
  ],
  // "select -10 with the spinner", "set 30 on the slider": a value given to a field, a spinner or a slider.
  [new RegExp(`^(?:select|choose|pick|set|enter) (?:(${NUMBER})|${VALUE}) (?:with|using) (.+)$`, 'i'), (m) => ({ kind: 'set', value: m[1] ?? valueOf(m, 2), target: m[6]! })],
  [
    new RegExp(`^(?:select|choose|pick) ${LOOSE_VALUE} (?:from|in|on) (.+)$`, 'i'),
    // Last, a field by that name takes the value ("choose week 12 of 2025 in the Week field").
    (m, text) => lastly({ kind: 'select', option: valueOf(m), target: m[6]!, otherwise: choose(text) }, setBare(m, text, m[6]!, m[5] ?? valueOf(m))),
  ],
  // "choose Berlin as the city": an option of a dropdown, a list or a combobox typed into; else the words as they read without this rule.
  [
    new RegExp(`^(select|choose|pick) (${LOOSE_VALUE} as .+)$`, 'i'),
    (m, text) => {
      const parts = new RegExp(`^${LOOSE_VALUE} as (.+)$`, 'i').exec(m[2]!)!;
      return { kind: 'select', option: valueOf(parts), target: parts[6]!, otherwise: choose(text, m[2]!) };
    },
  ],
  // "use the slider to select 35": the control named first takes the value.
  [new RegExp(`^use (.+?) to (?:select|set|choose|pick|enter|type|input) (?:(${NUMBER})|${VALUE}|(\\S+))$`, 'i'), (m) => ({ kind: 'set', value: m[2] ?? m[7] ?? valueOf(m, 3), target: m[1]! })],
  // "clear the Search field": its value emptied; else a control called so ("Clear filters").
  [/^(?:clear|empty|erase)(?: out)? (.+)$/i, (m, text) => ({ kind: 'fill', value: '', target: m[1]!, otherwise: actOn(text) })],
  // Switches, boxes and sections: the state asked for.
  [/^(?:uncheck|untick|deselect|unselect|unmark) (.+)$/i, (m) => ({ kind: 'toggle', on: false, target: m[1]! })],
  [/^(?:check|tick|mark|cross)(?: off)? (.+)$/i, (m, text) => ({ kind: 'toggle', on: true, target: m[1]!, otherwise: actOn(text) })],
  [/^(?:turn|switch|toggle|flip|set) (on|off) (.+)$/i, (m) => ({ kind: 'toggle', on: m[1]!.toLowerCase() === 'on', target: m[2]! })],
  [/^(?:turn|switch|set) (.+) (on|off)$/i, (m) => ({ kind: 'toggle', on: m[2]!.toLowerCase() === 'on', target: m[1]! })],
  [/^(?:enable|activate|allow|opt in to|opt into|start) (.+)$/i, (m, text) => ({ kind: 'toggle', on: true, target: m[1]!, otherwise: actOn(text) })],
  [/^(?:disable|deactivate|opt out of|stop|block|don'?t|do not|never) (.+)$/i, (m, text) => ({ kind: 'toggle', on: false, target: m[1]!, otherwise: actOn(text) })],
  [/^(?:expand|unfold|open up|reveal) (.+)$/i, (m, text) => ({ kind: 'expand', open: true, target: m[1]!, otherwise: actOn(text) })],
  [/^(?:collapse|fold) (.+)$/i, (m, text) => ({ kind: 'expand', open: false, target: m[1]!, otherwise: actOn(text) })],
  [/^(?:close|hide) (.+)$/i, (m, text) => ({ ...actOn(text), otherwise: { kind: 'expand', open: false, target: m[1]! } })],
  [/^(?:select|choose|pick)(?: out)? (.+)$/i, (m, text) => choose(text, m[1]!)],
  [/^(?:sort|filter|order) (?:\w+ )?by (.+)$/i, (m, text) => choose(text, m[1]!)],
  // Clicking, said in so many words.
  [/^(?:click on|click|tap on|tap|press on|press|push|hit|activate) (.+)$/i, (m) => ({ kind: 'click', target: m[1]!, literal: true, goes: true })],
  [/^(?:switch to|go to|navigate to|head to|jump to|get to) (.+)$/i, (m) => (looksLikeUrl(m[1]!) ? undefined : { kind: 'click', target: m[1]!, goes: true })],
  [/^(?:go back|navigate back|head back|get back) to (.+)$/i, (m) => ({ kind: 'click', target: m[1]!, verb: verb('back', false), goes: true })],
  [/^(follow|open|view|show|see|read|visit|launch|access|return to|watch|listen to) (.+)$/i, (m) => ({ kind: 'click', target: m[2]!, verb: verb(m[1]!, false), goes: true })],
  // "go full screen", "go live": a light verb before the control's name.
  [/^go (?!to\b|back\b)(.+)$/i, (m) => ({ kind: 'click', target: m[1]!, verb: verb('go', false) })],
];

/** Verbs that start a step of their own after "and" or "then". */
export const STEP_START = new RegExp(
  String.raw`^(?:${TYPE}|click|tap|press|hit|push|select|choose|pick|check|tick|uncheck|untick|hover|scroll|drag|go|navigate|open|close|submit|log ?in|sign ?in|sign ?out|log ?out|sign ?up|register|search|save|delete|remove|add|edit|accept|reject|dismiss|confirm|continue|proceed|apply|turn|switch|toggle|enable|disable|expand|collapse|follow|send|post|publish|reply|share|like|buy|pay|order|book|reserve|subscribe|cancel|set|change|upload|download|play|watch|finish|complete|create|archive|star|borrow|request|mark|sort|place|rename|move|restore|approve|invite|join|print|export|start|update|reset|clear|flag|report|undo|copy|paste|duplicate|assign|schedule|decline|verify|upgrade|rate|increase|decrease)\b`,
  'i',
);

export function parseInstruction(instruction: string): Intent {
  const text = clean(instruction);
  const parts = splitSteps(text);
  if (parts.length > MAX_STEPS) return { kind: 'refuse', words: parts.slice(MAX_STEPS).join(', ').slice(0, 80), why: `an instruction of more than ${MAX_STEPS} steps is more than one act carries out` };
  if (parts.length > 1 && parts.slice(1).every((p) => STEP_START.test(p))) {
    return { kind: 'steps', steps: parts.map((p, i) => readFor(p, parts[i + 1]) ?? parseStep(p)) };
  }
  return parseStep(text);
}

/** "copy X, paste it into …", "read the order number and type it into …": a step that finds a value the next one types as "it" or "that" (alone, "copy …" names a Copy control). */
const FINDS = /^(?:copy|remember|memori[sz]e|note down|note|read|find|look up|locate|get|see|check) (.+)$/i;
const USES = /\b(?:it|that|this)\b/i;

function readFor(part: string, next: string | undefined): Intent | undefined {
  const m = FINDS.exec(part);
  return m && next && USES.test(maskQuotes(next)) ? { kind: 'read', target: m[1]!.replace(/^(?:the )?(?:text|value|contents?|words?)(?: (?:of|in|from|inside|on))? /i, '') } : undefined;
}

/** Most steps (or list items) one instruction may hold: the agent's default step budget. */
const MAX_STEPS = 20;
/** Longest step (its words outside quotes) the grammar reads: a longer one is no single step, and the bound keeps parsing linear. */
const MAX_STEP_CHARS = 300;
/** Clauses that put a condition or a purpose on a step: the model carries out none of them. */
const CONDITION = /\b(?:so that|so it|such that|until|in order to|unless|only if|as long as|at least|at most|exactly|twice|thrice|\d+ times)\b.*$/i;
/** Verbs of actions the model does not carry out: refused, never read as the name of a control. */
const NOT_DONE = /^(?:resize|zoom|rotate|crop|stretch|shrink|enlarge|cut|screenshot|count|calculate|compute|add up|multiply|divide|subtract|solve|translate|summari[sz]e|draw|paint|right[- ]click|double[- ]click|triple[- ]click|long[- ]press)\b/i;

function parseStep(raw: string): Intent {
  const masked = maskQuotes(raw);
  if (masked.replace(/\u0001/g, '').replace(/\s+/g, ' ').length > MAX_STEP_CHARS) {
    return { kind: 'refuse', words: `${raw.slice(0, 60)}…`, why: `a step of more than ${MAX_STEP_CHARS} characters (outside quotes) is not one step the offline model reads` };
  }
  const verbWord = NOT_DONE.exec(masked);
  if (verbWord) return { kind: 'refuse', words: verbWord[0], why: `"${verbWord[0]}" is not an action the offline model carries out` };
  const { step, transform, unknown } = takeTransform(raw);
  if (unknown) return { kind: 'refuse', words: unknown, why: `"${unknown}" is not a way of writing a value the offline model applies (it applies upper case and lower case)` };
  const condition = CONDITION.exec(maskQuotes(step));
  if (condition && !/^(?:wait|log ?in|sign ?in)\b/i.test(step)) {
    return { kind: 'refuse', words: condition[0], why: `the offline model does not carry out conditions, purposes or counts such as "${condition[0]}"` };
  }
  const intent = eachTarget(parseRules(step));
  if (!transform) return intent;
  if ((intent.kind === 'fill' && !intent.search) || intent.kind === 'set') return { ...intent, transform, otherwise: undefined };
  // One value for several fields ("… in upper case into Email and Phone"): the change of case for each
  // (pairs with values of their own do not say which value it is for: refused below).
  const values = intent.kind === 'steps' ? new Set(intent.steps.map((p) => ((p.kind === 'fill' && !p.search) || p.kind === 'set' ? p.value : undefined))) : undefined;
  if (intent.kind === 'steps' && values!.size === 1 && !values!.has(undefined)) {
    return { kind: 'steps', steps: intent.steps.map((p) => ({ ...p, transform })) };
  }
  return { kind: 'refuse', words: raw, why: 'a change of case applies only to a value typed into a field' };
}

function parseRules(text: string): Intent {
  const pairs = valueTargetPairs(text);
  if (pairs) return pairs;
  // "fill Message with Hi, welcome to the team": when no field is named "welcome", the one field takes it all.
  const fields = fieldValuePairs(text);
  return fields ? lastly(fields, byRules(text)) : byRules(text);
}

function byRules(text: string): Intent {
  const list = listOf(text);
  for (const [pattern, build] of RULES) {
    const m = pattern.exec(text);
    const intent = m && build(m, text);
    if (intent) return list ? lastly(intent, list) : intent;
  }
  return list ?? actOn(text);
}

/**
 * One value for a list of targets ("type 'x' into Email and Phone", "select Blue in the Color and Trim
 * dropdowns"): one step per target, all grounded before any runs, so it is done on every target or
 * refused before anything is done. A shared head is given to each ("the first and last name fields":
 * first name field, last name field). "A or B" says no target: refused.
 */
function eachTarget(intent: Intent): Intent {
  if ((intent.kind !== 'fill' || intent.search || intent.source) && intent.kind !== 'select' && intent.kind !== 'set') return intent;
  const masked = maskQuotes(intent.target);
  if (/\sor\s/i.test(masked)) {
    return { kind: 'refuse', words: intent.target, why: `"${intent.target}" names more than one target without saying which one` };
  }
  const items = splitList(intent.target);
  if (items.length < 2 || items.length > MAX_STEPS) return intent;
  const head = TARGET_LIST_END.exec(items.at(-1)!)?.[0];
  const lastWords = items.at(-1)!.slice(0, head ? -head.length : undefined).trim().split(' ');
  const targets = items.map((item, i) => {
    if (!head) return item;
    if (i === items.length - 1) return `${lastWords.join(' ')} ${singular(head)}`;
    const words = item.replace(/^the /i, '').split(' ');
    // "first" of "the first and last name fields" shares "name" with "last name".
    const shared = words.length === 1 && lastWords.length > 1 && !lastWords.some((w) => w.toLowerCase() === words[0]!.toLowerCase()) ? ` ${lastWords.slice(1).join(' ')}` : '';
    return `${item}${shared} ${singular(head)}`;
  });
  // When no such fields are on the page, the step's other readings are still tried ("select the emails from Alice and Carol": boxes).
  return { kind: 'steps', steps: targets.map((target) => ({ ...intent, target, otherwise: undefined })), ...(intent.otherwise && { otherwise: intent.otherwise }) };
}

function singular(noun: string): string {
  return noun.replace(/(box)es$/i, '$1').replace(/s$/i, '');
}

/** The intent with `reading` tried after all of its own readings. */
function lastly(intent: Intent, reading: Intent): Intent {
  return { ...intent, otherwise: intent.otherwise ? lastly(intent.otherwise, reading) : reading };
}

/** A value given without quotes, to type into a field: literal, read from the page, or refused. */
function typeBare(value: string, target: string): Intent {
  // "'ada lovelace' capitalized": words after a quoted value say something of it the model does not do.
  const after = new RegExp(`^${VALUE}\\s+(.+)$`).exec(value.trim());
  if (after) return { kind: 'refuse', words: after[5]!, why: `"${after[5]}" after the quoted value is not something the offline model applies to a value (it applies upper case and lower case)` };
  // "Ada into First name and Lovelace": a value running into the clause of another field.
  const swallowed = /\s(?:into|in the|inside)\s/i.exec(maskQuotes(value));
  if (swallowed) return { kind: 'refuse', words: value, why: `"${value}" holds "${swallowed[0].trim()}" of another clause: where one value ends and the next field begins is unclear; quote each value` };
  const bare = bareValue(value);
  // "type username into Username": a bare value that is the field's own name says which kind of value, not the value.
  if ('literal' in bare && fieldName(bare.literal) === fieldName(target)) {
    return { kind: 'refuse', words: value, why: `"${value}" is the field's own name: it says which kind of value to type, not the value; quote it to type it as written, or give the value (a variable)` };
  }
  if ('literal' in bare) return { kind: 'fill', value: bare.literal, target };
  if ('source' in bare) return { kind: 'fill', value: '', target, source: bare.source };
  return {
    kind: 'refuse',
    words: bare.described,
    why: `"${bare.described}" describes a value without giving it; the offline model types quoted text, a number, date, time, email, URL or single word, or reads "the text of <element>", "the <column> of <row>" in a table, or "it" after "copy …"`,
  };
}

/** A field's name as written, without "the" and "field": "the Username field" is "username". */
function fieldName(phrase: string): string {
  return phrase.trim().toLowerCase().replace(/^the\s+/, '').replace(/\s+(?:field|box|input|textbox)$/, '');
}

/** "set X to V": V names an option or a state as it is; as a field's value it must be literal or read from the page. */
function setBare(m: RegExpExecArray, text: string, target = m[1]!, loose: string | undefined = m[6]): Intent {
  if (loose === undefined) return { kind: 'set', value: valueOf(m, 2), target, otherwise: actOn(text) };
  const bare = bareValue(loose);
  if ('source' in bare) return { kind: 'fill', value: '', target, source: bare.source };
  return { kind: 'set', value: loose, target, ...('described' in bare && { described: true as const }), otherwise: actOn(text) };
}

/** "type Ada into First name and Lovelace into Last name": one "<value> into <target>" pair per item, each its own step; "… and also into Notes" repeats the value before. */
const PAIR = /^(.+?) (?:into|in|inside) (.+)$/i;
const SAME_VALUE = /^(?:also |then )?(?:into|in|inside) (.+)$/i;

function valueTargetPairs(text: string): Intent | undefined {
  const m = new RegExp(`^(${TYPE}) (.+)$`, 'i').exec(text);
  const items = m ? splitList(m[2]!) : [];
  if (items.length < 2 || items.length > MAX_STEPS || !PAIR.test(maskQuotes(items[0]!))) return undefined;
  const steps: Intent[] = [];
  for (const item of items) {
    const same = SAME_VALUE.exec(item);
    const previous = steps.at(-1);
    if (same && previous?.kind === 'fill') steps.push({ ...previous, target: same[1]! });
    else if (PAIR.test(maskQuotes(item))) steps.push(parseSingle(`${m![1]} ${item}`));
    else return undefined;
  }
  return { kind: 'steps', steps };
}

/** "fill Note with 'x', Tags with 'y, z'", "set Note to a and Tags to b": one "<field> with|to <value>" per item, each its own step (else the first field would take the rest as its value). */
const FIELD_FIRST = /^(fill(?: in| out)?|set|enter|change) (.+)$/i;
const FIELD_PAIR = /^.+? (?:with|to) .+$/i;
/** What starts the next pair after a joint: a short name (no "and" in it) and "with" or "to". */
const NEXT_FIELD = /^(?:(?!and\b)[\p{L}\p{N}][\p{L}\p{N}]* ){1,5}(?:with|to) \S/iu;
const JOINT = /,\s*(?:and\s+)?|\s+and\s+/g;

function fieldValuePairs(text: string): Intent | undefined {
  const m = FIELD_FIRST.exec(text);
  if (!m) return undefined;
  const rest = m[2]!;
  const masked = maskQuotes(rest);
  // Cut only where a field and its "with"/"to" follow: "Tags with red, blue" keeps its comma.
  const items: string[] = [];
  let start = 0;
  for (const joint of masked.matchAll(JOINT)) {
    const after = joint.index + joint[0].length;
    if (!NEXT_FIELD.test(masked.slice(after))) continue;
    items.push(rest.slice(start, joint.index).trim());
    start = after;
  }
  items.push(rest.slice(start).trim());
  if (items.length < 2 || items.length > MAX_STEPS || !items.every((item) => FIELD_PAIR.test(maskQuotes(item)))) return undefined;
  return { kind: 'steps', steps: items.map((item) => parseSingle(`${m[1]} ${item}`)) };
}

/** A verb with a list of targets ("tick Refunds, Billing and Inventory"): read as one step per target, tried when nothing is named by the whole. */
const LIST = /^(select|choose|pick|check|tick|uncheck|untick|click|tap|press|enable|disable) (.+)$/i;

/** "fill in First name "Ada", Last name "Lovelace" and City "London"": one field and its quoted value per item. */
const FILL_LIST = /^(?:fill in|fill out|fill|enter|type|input) (.+)$/i;
const FIELD_VALUE = new RegExp(`^(.+?) ${VALUE}$`);

function listOf(text: string): Intent | undefined {
  const fills = FILL_LIST.exec(text);
  const pairs = fills ? splitList(fills[1]!).map((item) => FIELD_VALUE.exec(item)) : [];
  if (pairs.length >= 2 && pairs.length <= MAX_STEPS && pairs.every(Boolean)) {
    return { kind: 'steps', steps: pairs.map((p) => ({ kind: 'fill', value: valueOf(p!, 2), target: p![1]! })) };
  }
  const m = LIST.exec(text);
  if (!m) return undefined;
  const targets = splitList(m[2]!);
  if (targets.length < 2 || targets.length > MAX_STEPS) return undefined;
  return { kind: 'steps', steps: targets.map((t) => parseSingle(`${m[1]} ${t}`)) };
}

/** One target's step of a list: its rules only (a list item is no list). */
function parseSingle(text: string): Intent {
  for (const [pattern, build] of RULES) {
    const m = pattern.exec(text);
    const intent = m && build(m, text);
    if (intent) return intent;
  }
  return actOn(text);
}

/** "A, B, C and D" → its items (outside quotes); a single item when there is no list. */
function splitList(text: string): string[] {
  const masked = maskQuotes(text);
  const items: string[] = [];
  let start = 0;
  const joint = /,\s*(?:and\s+|or\s+)?|\s+(?:and|&)\s+/gy;
  for (let i = 0; i < masked.length; i++) {
    joint.lastIndex = i;
    const found = joint.exec(masked);
    if (!found) continue;
    items.push(text.slice(start, i).trim());
    start = i + found[0].length;
    i = start - 1;
  }
  items.push(text.slice(start).trim());
  return items.filter(Boolean);
}

/** Verbs that say little of the control ("make it monthly", "give it 5 stars"): looked for, not required. */
const LIGHT_VERBS = new Set(['make', 'give', 'get', 'have', 'let', 'do']);

/** An instruction whose verb names the control: "delete Bob", "accept all cookies", "log in". */
function actOn(text: string): Intent {
  const [first = ''] = tokens(text);
  // The rest as written (quotes kept); a joined term such as "log in" is one verb.
  const rest = text.replace(/^\s*(?:log[ -]?in|sign[ -]?in|log[ -]?out|sign[ -]?out|sign[ -]?up|\S+)\s*/i, '');
  return { kind: 'click', target: rest, verb: verb(first, !LIGHT_VERBS.has(first)), unknownVerb: true };
}

/** "select HF2": a box, radio button, tab or option so named; else a control named by the verb ("Select all"). */
function choose(text: string, target?: string): Intent {
  const [first = ''] = tokens(text);
  const phrase = target ?? tokens(text).slice(1).join(' ');
  return { kind: 'choose', target: phrase, verb: verb(first, false), otherwise: { kind: 'click', target: phrase, verb: verb(first, false) } };
}

/** Type into the search field and submit; else a control named by the words ("search for flights" is a button). */
function search(m: RegExpExecArray, first: number, target: string, text: string): Intent {
  return { kind: 'fill', value: valueOf(m, first), target, verb: verb('search', false), search: true, otherwise: actOn(text) };
}

function clean(instruction: string): string {
  return instruction.trim().replace(/\s+/g, ' ').replace(/[.!]+$/, '');
}

/** A clause ending so ("… and Confirm password fields") ends a list of targets, not a step of its own. */
export const TARGET_LIST_END = /\b(?:fields|boxes|checkboxes|textboxes|dropdowns|inputs|menus|lists|areas|selects|sliders)$/i;

/**
 * "enter the password "yA" and log in": the parts joined by and/then (or a comma before a verb),
 * outside quotes. One pass with a sticky pattern: linear in the instruction's length.
 */
function splitSteps(text: string): string[] {
  const parts: string[] = [];
  // A value in single quotes ('Leave at door, then ring') is masked too: an apostrophe inside a word is no quote.
  const masked = maskQuotes(text);
  let quote: string | undefined;
  let start = 0;
  const joint = /,? and then |,? then |, and | and |; |, (?=\S)/iy;
  for (let i = 0; i < text.length; i++) {
    const ch = masked[i]!;
    if (quote) {
      if (ch === quote || (quote === '“' && ch === '”')) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === '“') {
      quote = ch;
      continue;
    }
    joint.lastIndex = i;
    const found = i > start ? joint.exec(masked) : null;
    // "and" or a bare comma splits only before a verb ("copy X, paste it into Y"); elsewhere it is part of a name or a list.
    // "into the Password and Confirm password fields": the clause after "and" ends a list of targets (bounded look: linear).
    const endsList = found && /^,? ?and |^, $/i.test(found[0]) && TARGET_LIST_END.test(masked.slice(i + found[0].length, i + found[0].length + 80).split(/,? and |, |; | then /i)[0]!.trim());
    if (found && !endsList && (/then|;/i.test(found[0]) || STEP_START.test(masked.slice(i + found[0].length, i + found[0].length + 40)))) {
      parts.push(text.slice(start, i).trim());
      i += found[0].length - 1;
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

/** "Enter", "the tab key", "ctrl+a", "Shift + Tab" → Playwright key names; undefined for non-keys. */
function keyName(phrase: string): string | undefined {
  const parts = phrase.toLowerCase().split(/\s*\+\s*/);
  const last = parts.pop()!;
  const key = KEYS[last] ?? (/^f([1-9]|1[0-2])$/.test(last) ? last.toUpperCase() : parts.length > 0 && /^[a-z0-9]$/.test(last) ? last.toUpperCase() : undefined);
  if (!key) return undefined;
  const mods = parts.map((p) => MODIFIERS[p]);
  if (mods.some((m) => !m)) return undefined;
  return [...mods, key].join('+');
}

/** The value captured by the VALUE groups starting at `first`. */
function valueOf(m: RegExpExecArray, first = 1): string {
  for (let i = first; i < first + 5; i++) if (m[i] !== undefined) return m[i]!;
  return '';
}

function looksLikeUrl(text: string): boolean {
  return /^(https?:\/\/|www\.)|\.[a-z]{2,}(\/|$)/i.test(text);
}
