// The built-in model's grammar: plain single-step instructions ("click Sign in", "type "x" into
// Email", "turn on dark mode", "add the Blue Mug to the cart"), and two or three of them joined by
// "and" or "then". An instruction whose verb is not one of these names its control by that verb
// ("delete Bob", "accept all cookies"), so the verb is looked for on the element.
import type { VerbWords } from './match-target.js';
import { stems, tokens } from './words.js';

export type Intent = (
  | { kind: 'goBack' }
  | { kind: 'press'; key: string; target?: string }
  | { kind: 'scrollTo'; position: string; target?: string }
  | { kind: 'chunk'; direction: 'next' | 'prev'; target?: string }
  | { kind: 'scrollIntoView'; target: string }
  | { kind: 'drag'; target: string; destination: string }
  /** Type a value; `search`: into a search field, then press Enter. */
  | { kind: 'fill'; value: string; target: string; verb?: VerbWords; search?: boolean }
  | { kind: 'select'; option: string; target: string }
  /** "set X to V": a field (fill), a dropdown (its option V) or a switch (V is on or off). */
  | { kind: 'set'; value: string; target: string }
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

const verb = (text: string, required: boolean): VerbWords => ({ words: stems(text), required });

const RULES: Rule[] = [
  [/^(?:go|navigate|head) back(?: to the previous page)?$|^(?:go|navigate) to the previous page$/i, () => ({ kind: 'goBack' })],
  [
    /^scroll (?:the page )?(down|up)(?: (?:by )?(?:one|a) (?:page|screen))?(?: (?:in|within|inside) (.+))?$/i,
    (m) => ({ kind: 'chunk', direction: m[1]!.toLowerCase() === 'down' ? 'next' : 'prev', target: m[2] }),
  ],
  [
    /^scroll (?:the page )?to (?:the )?(top|bottom)(?: of (?:the page|(.+)))?$/i,
    (m) => ({ kind: 'scrollTo', position: m[1]!.toLowerCase() === 'top' ? '0%' : '100%', target: m[2] }),
  ],
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
  [
    new RegExp(`^(?:fill(?: in| out)?|populate|complete) (.+?) (?:with|as) ${LOOSE_VALUE}$`, 'i'),
    (m) => ({ kind: 'fill', value: valueOf(m, 2), target: m[1]! }),
  ],
  [new RegExp(`^${TYPE} ([^"“”]+?) ${VALUE}$`, 'i'), (m) => ({ kind: 'fill', value: valueOf(m, 2), target: m[1]! })],
  [new RegExp(`^${TYPE} ([^"“”%]+?) (?:in|into|inside) (.+)$`, 'i'), (m) => ({ kind: 'fill', value: m[1]!, target: m[2]! })],
  [new RegExp(`^${TYPE} ([^"“”%]+?) as (.+)$`, 'i'), (m) => ({ kind: 'fill', value: m[1]!, target: m[2]! })],
  [new RegExp(`^${TYPE} ${VALUE}$`, 'i'), (m) => ({ kind: 'fill', value: valueOf(m), target: '' })],
  // "confirm the password with "x"": a field named by the whole phrase takes the value; else the verb names a control.
  [new RegExp(`^(\\p{L}+(?: .+?)?) with ${VALUE}$`, 'iu'), (m, text) => ({ kind: 'fill', value: valueOf(m, 2), target: m[1]!, otherwise: actOn(text) })],
  [
    new RegExp(`^(?:set|change|update|switch) (.+?) (?:to|as) ${LOOSE_VALUE}$`, 'i'),
    (m, text) => ({ kind: 'set', value: valueOf(m, 2), target: m[1]!, otherwise: actOn(text) }),
  ],
  [
    new RegExp(`^(?:select|choose|pick) ${LOOSE_VALUE} (?:from|in|on) (.+)$`, 'i'),
    (m, text) => ({ kind: 'select', option: valueOf(m), target: m[6]!, otherwise: choose(text) }),
  ],
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
  [/^(?:click on|click|tap on|tap|press on|press|push|hit|activate|double[- ]click(?: on)?) (.+)$/i, (m) => ({ kind: 'click', target: m[1]!, literal: true, goes: true })],
  [/^(?:switch to|go to|navigate to|head to|jump to|get to) (.+)$/i, (m) => (looksLikeUrl(m[1]!) ? undefined : { kind: 'click', target: m[1]!, goes: true })],
  [/^(?:go back|navigate back|head back|get back) to (.+)$/i, (m) => ({ kind: 'click', target: m[1]!, verb: verb('back', false), goes: true })],
  [/^(follow|open|view|show|see|read|visit|launch|access|return to|watch|listen to) (.+)$/i, (m) => ({ kind: 'click', target: m[2]!, verb: verb(m[1]!, false), goes: true })],
  // "go full screen", "go live": a light verb before the control's name.
  [/^go (?!to\b|back\b)(.+)$/i, (m) => ({ kind: 'click', target: m[1]!, verb: verb('go', false) })],
];

/** Verbs that start a step of their own after "and" or "then". */
export const STEP_START = new RegExp(
  String.raw`^(?:${TYPE}|click|tap|press|hit|push|select|choose|pick|check|tick|uncheck|untick|hover|scroll|drag|go|navigate|open|close|submit|log ?in|sign ?in|sign ?out|log ?out|sign ?up|register|search|save|delete|remove|add|edit|accept|reject|dismiss|confirm|continue|proceed|apply|turn|switch|toggle|enable|disable|expand|collapse|follow|send|post|publish|reply|share|like|buy|pay|order|book|reserve|subscribe|cancel|set|change|upload|download|play|watch|finish|complete|create|archive|star|borrow|request|mark|sort|place|rename|move|restore|approve|invite|join|print|export|start|update|reset|clear|flag|report|undo|copy|duplicate|assign|schedule|decline|verify|upgrade|rate|increase|decrease)\b`,
  'i',
);

export function parseInstruction(instruction: string): Intent {
  const text = clean(instruction);
  const parts = splitSteps(text);
  if (parts.length > 1 && parts.length <= 3 && parts.slice(1).every((p) => STEP_START.test(p))) {
    return { kind: 'steps', steps: parts.map(parseStep) };
  }
  return parseStep(text);
}

function parseStep(text: string): Intent {
  for (const [pattern, build] of RULES) {
    const m = pattern.exec(text);
    const intent = m && build(m, text);
    if (intent) return intent;
  }
  return actOn(text);
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

/** "enter the password "yA" and log in": the parts joined by and/then, outside quotes. */
function splitSteps(text: string): string[] {
  const parts: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote || (quote === '“' && ch === '”')) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === '“') {
      quote = ch;
      continue;
    }
    const joint = /^(?:,? and then |,? then |, and | and |; )/i.exec(text.slice(i));
    if (joint && i > start) {
      parts.push(text.slice(start, i).trim());
      i += joint[0].length - 1;
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
