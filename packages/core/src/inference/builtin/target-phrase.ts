// What an instruction says about its target: a quoted name, the words that must be found on or
// around the element, the kind it names ("button", "menu"), and a position ("the second …").
import { KIND_WORDS, type NamedKind } from './element-kinds.js';
import { CONTAINER_NOUNS, FILLER, STOP, stem, tokens } from './words.js';

export interface TargetPhrase {
  /** As written, for messages. */
  text: string;
  /** A quoted name ("the button labeled "Cancel""): stems in order; the element's own name must hold them. */
  quoted?: string[];
  /** Stems that must each be found on the element or around it. */
  words: string[];
  /** Nouns for the surroundings ("the cookie banner", "the second address"): required only when nothing else names the target. */
  nouns: string[];
  /** Linking words ("about", "in"): a name only when the phrase has no other word at all ("the About field"). */
  linking: string[];
  /** Filler words ("now", "new"): never required, but an element whose own name carries them fits better ("the Pay now button"). */
  filler: string[];
  kind?: NamedKind;
  /** Position among equally good matches: 0 first, -1 last. */
  ordinal?: number;
}

const ORDINALS: Record<string, number> = {
  first: 0, '1st': 0, second: 1, '2nd': 1, third: 2, '3rd': 2, fourth: 3, '4th': 3, fifth: 4, '5th': 4,
  sixth: 5, '6th': 5, seventh: 6, '7th': 6, eighth: 7, '8th': 7, ninth: 8, '9th': 8, tenth: 9, '10th': 9, last: -1,
};
/** Words after which the phrase describes the surroundings, not the target ("the Delete button in the Bob row"). */
const AROUND = new Set(['in', 'inside', 'within', 'under', 'for', 'of', 'from', 'near', 'beside', 'next', 'below', 'above', 'on']);
/** "the dialog box" is a dialog, not a box to type into or tick. */
const BOX_HOLDERS = new Set(['dialog', 'message', 'alert', 'modal', 'popup', 'pop', 'info', 'chat', 'cookie', 'confirmation']);
const QUOTED = /"([^"]+)"|“([^”]+)”|(?<![\p{L}\p{N}])'([^']+)'(?![\p{L}\p{N}])/gu;

/**
 * The readings of a target phrase, most literal first: "the first name field" is a field named
 * "First name" before it is the first of the name fields.
 */
export function parseTarget(raw: string): TargetPhrase[] {
  const text = raw.trim();
  // A quoted name names the target; quoted after "of", "in", "for"… it names what surrounds it.
  const named: string[] = [];
  const around: string[] = [];
  for (const m of text.matchAll(QUOTED)) {
    const before = tokens(text.slice(0, m.index));
    (before.some((w, i) => i > 0 && AROUND.has(w)) ? around : named).push((m[1] ?? m[2] ?? m[3])!);
  }
  const rest = tokens(text.replace(QUOTED, ' ').replace(/\bnumber of\b/gi, ' '));
  const untyped = [...rest, ...around.flatMap(tokens)];
  const typed = [...untyped];
  const kind = takeKind(typed);
  const quoted = named.length > 0 ? named.flatMap((q) => tokens(q).filter((w) => !STOP.has(w)).map(stem)) : undefined;
  const literal: TargetPhrase = { text, ...contentWords(typed), ...(quoted && { quoted }), ...(kind && { kind }) };
  const readings = [literal];
  const at = typed.findIndex((w) => w in ORDINALS);
  if (at >= 0) readings.push({ ...literal, ...contentWords(typed.filter((_, i) => i !== at)), ordinal: ORDINALS[typed[at]!]! });
  // "the card options", "underlining links": a kind word may be a name after all, when nothing of that kind fits.
  if (kind) readings.push({ text, ...contentWords(untyped), ...(quoted && { quoted }) });
  // "the message box": not a dialog after all but a box (a field) named "message", when no dialog fits.
  const boxed = [...untyped];
  if (takeKind(boxed, true) === 'box' && boxed.length !== typed.length) readings.push({ text, ...contentWords(boxed), ...(quoted && { quoted }), kind: 'box' });
  return readings;
}

/**
 * Removes the kind word (the last one before the words about the surroundings) and returns its kind.
 * `heldBox`: "box" after a word such as "message" is a box all the same.
 */
function takeKind(words: string[], heldBox = false): NamedKind | undefined {
  const headEnd = words.findIndex((w, i) => i > 0 && AROUND.has(w));
  const singulars = words.map(singular);
  for (const limit of headEnd > 0 ? [headEnd, words.length] : [words.length]) {
    for (let i = limit - 1; i >= 0; i--) {
      for (const [parts, kind] of KIND_PARTS) {
        const at = i - parts.length + 1;
        if (at < 0 || !parts.every((p, j) => singulars[at + j] === p)) continue;
        if (kind === 'box' && !heldBox && BOX_HOLDERS.has(words[at - 1] ?? '')) continue;
        words.splice(at, parts.length);
        return kind;
      }
    }
  }
  return undefined;
}

/** KIND_WORDS with each phrase in its words. */
const KIND_PARTS = KIND_WORDS.map(([phrase, kind]) => [phrase.split(' '), kind] as const);

function singular(word: string): string {
  return word.endsWith('es') && word.length > 5 ? word.slice(0, -2) : word.endsWith('s') && word.length > 3 ? word.slice(0, -1) : word;
}

const ARTICLES = new Set(['the', 'a', 'an', 'this', 'that', 'my', 'your', 'our']);

/** Stems without stop words or filler, the nouns for the surroundings, the linking words and the filler set apart. */
function contentWords(words: string[]): { words: string[]; nouns: string[]; linking: string[]; filler: string[] } {
  const kept = words.filter((w) => !STOP.has(w) && !FILLER.has(w)).map(stem);
  return {
    words: kept.filter((w) => !CONTAINER_NOUNS.has(w)),
    nouns: kept.filter((w) => CONTAINER_NOUNS.has(w)),
    linking: words.filter((w) => STOP.has(w) && !ARTICLES.has(w)).map(stem),
    filler: words.filter((w) => FILLER.has(w)).map(stem),
  };
}
