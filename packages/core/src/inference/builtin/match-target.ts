// Finds the element an instruction names. Every word the instruction uses for its target must be
// found on the element or around it (its row, card, label, group or section), at least one of them
// on the element itself, and a verb that names the control ("add", "delete") on the control. A
// clear best match wins; a tie is reported with the candidates; no match is reported with the
// nearest candidates. Nothing is ever picked for being first of its kind.
import type { SnapshotElement } from '../../snapshot/types.js';
import { fitsNeed, isCheckable, isEditable, isSelectable, KINDS, NEED_LABELS, type NamedKind, type Need } from './element-kinds.js';
import { describeElement, type ElementView, type Page } from './page-view.js';
import { parseTarget, type TargetPhrase } from './target-phrase.js';
import { alternatives, FILLER, stem } from './words.js';

const FILLER_STEMS = new Set([...FILLER].map(stem));

/** Words the instruction's verb contributes ("add" in "add the Blue Mug to the cart"). */
export interface VerbWords {
  /** Stems. */
  words: string[];
  /** Required: the control must be called so ("delete …"). Optional: preferred when it is ("show the password"). */
  required: boolean;
}

export interface TargetQuery {
  /** The target as the instruction words it ("the Delete button for Bob"); may be empty. */
  phrase: string;
  /** Which elements can take the action. */
  accepts: (e: SnapshotElement) => boolean;
  /** Names the elements accepted, for messages ("text field"). */
  label: string;
  verb?: VerbWords;
  /** A dropdown may be named by one of its options ("sort by Newest", "choose the Smoke colour"). */
  byOption?: boolean;
  /** A link may be named by its address ("open the author's page" for /authors/…): for instructions that go somewhere. */
  byAddress?: boolean;
}

export interface Match {
  element: SnapshotElement;
  view: ElementView;
  /** The option the words named, for a dropdown found by one. */
  option?: string;
}

export type MatchResult = Match | MatchFailure;

export interface MatchFailure {
  failure: string;
  /** Nothing fits: the instruction may be read another way. (A tie is a refusal, not a reason to read on.) */
  none?: true;
}

export function queryFor(need: Need, phrase: string, verb?: VerbWords): TargetQuery {
  return { phrase, accepts: (e) => fitsNeed(e, need), label: NEED_LABELS[need], ...(verb && { verb }) };
}

/** The element a query names, trying the phrase's readings in order (see parseTarget). */
export function findTarget(page: Page, query: TargetQuery): MatchResult {
  let first: MatchResult | undefined;
  for (const phrase of parseTarget(query.phrase)) {
    const result = pick(page, phrase, query);
    if (!('failure' in result) || !result.none) return result;
    first ??= result;
  }
  return first!;
}

/** Every element matching a query, best first (observe lists them). */
export function rankTargets(page: Page, query: TargetQuery): Match[] {
  const [phrase] = parseTarget(query.phrase);
  return scoreAll(page, phrase!, query).map((s) => s.match);
}

interface Scored {
  match: Match;
  /** Compared in order, larger first: see score(). */
  rank: number[];
}

function pick(page: Page, phrase: TargetPhrase, query: TargetQuery): MatchResult {
  const scored = scoreAll(page, phrase, query);
  // "the Email field" when a field is needed is a text field; "the Pricing link" when a box is needed is no box at all.
  const kindLabel = phrase.kind && (query.label === 'element' || query.label === KINDS[phrase.kind].label) ? KINDS[phrase.kind].label : query.label;
  if (scored.length === 0) return { failure: `No ${kindLabel} on the page matches "${phrase.text || '(any)'}"${nearest(page, phrase, query)}`, none: true };
  const best = scored[0]!.rank;
  const top = scored.filter((s) => sameRank(s.rank, best));
  if (phrase.ordinal !== undefined) {
    const chosen = top.at(phrase.ordinal);
    return chosen ? chosen.match : { failure: `There ${top.length === 1 ? 'is only one' : `are only ${top.length}`} ${kindLabel}${top.length === 1 ? '' : 's'} matching "${phrase.text}": ${list(top.map((s) => s.match.view))}` };
  }
  if (top.length > 1) {
    return {
      failure: `"${phrase.text}" is ambiguous: ${top.length} elements match equally (${list(top.map((s) => s.match.view))}); name it more precisely, e.g. "the first …" or "… in <nearby text>"`,
    };
  }
  return top[0]!.match;
}

/** "OK in the dialog": nouns that put the target in a dialog. */
const DIALOG_NOUNS = new Set(['dialog', 'modal', 'popup', 'pop'].map(stem));

function scoreAll(page: Page, phrase: TargetPhrase, query: TargetQuery): Scored[] {
  const out: Scored[] = [];
  // When the page has a dialog open, a target said to be in one is one of its controls.
  const inDialog = phrase.nouns.some((n) => DIALOG_NOUNS.has(n)) && page.views.some((v) => v.inDialog);
  for (const view of page.views) {
    if (!query.accepts(view.element)) continue;
    if (inDialog && !view.inDialog) continue;
    const strictKind = phrase.kind ? kindFit(view.element, phrase.kind) : 1;
    if (strictKind === 0) continue;
    const s = score(view, phrase, query, strictKind === 2);
    if (s) out.push(s);
  }
  // Stable in document order for equal ranks, so "first" and "last" mean what they say.
  return out.sort((a, b) => compareRank(b.rank, a.rank) || a.match.view.index - b.match.view.index);
}

/** 2: what the kind is; 1: what people also call so; 0: another kind. */
function kindFit(e: SnapshotElement, kind: NamedKind): 0 | 1 | 2 {
  const rule = KINDS[kind];
  return rule.strict(e) ? 2 : rule.lenient?.(e) ? 1 : 0;
}

const OWN = 8;
const HREF = 6;
const AROUND = 4;
const SECTION = 2;
const PAGE = 1;

/**
 * The rank of an element for a phrase, or undefined when it does not fit. Ranks compare, in order:
 * whether it can be clicked at all (not behind a modal); how exactly a quoted name matches; how
 * many of the verb's words the element's name carries; how closely the words are found (on the
 * element, in its link, around it, in its section, in the page title); how many linking words said are
 * on it; whether the element's whole name was asked for; how many filler words said are on it; whether it is strictly of the named kind.
 */
function score(view: ElementView, phrase: TargetPhrase, query: TargetQuery, strictKind: boolean): Scored | undefined {
  const verbWords = query.verb?.words ?? [];
  // Nouns for the surroundings name the target only when nothing else does ("the address field"),
  // and linking words only when there is nothing else at all ("the About field").
  const named = phrase.words.length > 0 || phrase.quoted !== undefined || verbWords.length > 0;
  const words = named ? phrase.words : phrase.nouns.length > 0 ? phrase.nouns : phrase.linking;
  const nouns = named ? phrase.nouns : [];
  const asked = new Set([...words, ...phrase.nouns, ...(phrase.quoted ?? []), ...verbWords].flatMap(alternatives));
  if (namesAnotherAction(view, asked)) return undefined;

  let option: string[] | undefined;
  let optionLabel: string | undefined;
  if (query.byOption && view.options.length > 0) {
    const index = optionNamed(view.options, phrase) ?? optionHinted(view, words);
    if (index !== undefined) {
      option = view.options[index];
      optionLabel = view.element.options![index];
    }
  }

  let quotedTier = 0;
  if (phrase.quoted) {
    quotedTier = sameSequence(view.name, phrase.quoted) ? 2 : containsSequence(view.name, phrase.quoted) ? 1 : 0;
    if (quotedTier === 0 && option && sameSequence(option, phrase.quoted)) quotedTier = 2;
    if (quotedTier === 0) return undefined;
  }

  let onElement = quotedTier > 0;
  let sum = 0;
  const linking = words === phrase.linking;
  for (const word of words) {
    const level = option?.includes(word) ? OWN : linking ? (view.ownAll.has(word) ? OWN : 0) : levelOf(view, word);
    if (level === 0) return undefined;
    if (level === OWN || (level === HREF && query.byAddress)) onElement = true;
    sum += level;
  }
  // A noun for the surroundings is not required, and never decides between elements; but one that
  // the element carries shows the element is named ("the newsletter email field").
  if (nouns.some((noun) => levelOf(view, noun) === OWN)) onElement = true;

  // The verb that names the control is on it, in its link's address, or heads its section ("Subscribe and save").
  let verbOnElement = 0;
  for (const word of verbWords) {
    const alts = alternatives(word);
    if (alts.some((w) => view.own.has(w))) {
      verbOnElement++;
      onElement = true;
    } else if (query.verb!.required && alts.some((w) => view.href.has(w))) {
      onElement = true;
    } else if (query.verb!.required && !alts.some((w) => view.section.has(w))) {
      return undefined;
    }
  }
  const needsWords = words.length > 0 || (query.verb?.required ?? false);
  // "open the message from Lena": a link is what opens its row, when the words name the row.
  const opensItsRow = query.byAddress === true && view.element.role === 'link' && words.length > 0 && words.every((w) => levelOf(view, w) >= AROUND);
  if (needsWords && !onElement && !opensItsRow) return undefined;

  const wholeName = view.name.length > 0 && view.name.every((w) => asked.has(w) || option?.includes(w) || FILLER_STEMS.has(w)) ? 1 : 0;
  // "transfer from savings": of two dropdowns named From and To, the linking word names one.
  const linkingOnElement = words === phrase.linking ? 0 : phrase.linking.filter((w) => view.ownAll.has(w)).length;
  // "the Pay now button": of Pay and Pay now, the one named with the filler word said is the exact match.
  const fillerOnElement = phrase.filler.filter((w) => view.ownAll.has(w)).length;
  return {
    match: { element: view.element, view, ...(optionLabel !== undefined && { option: optionLabel }) },
    rank: [view.element.covered ? 0 : 1, quotedTier, verbOnElement, sum, linkingOnElement, wholeName, fillerOnElement, strictKind ? 1 : 0],
  };
}

/** How closely a word is found: on the element, in its link, around it, in its section; 0 when nowhere. */
function levelOf(view: ElementView, word: string): number {
  const alts = alternatives(word);
  if (alts.some((w) => view.own.has(w))) return OWN;
  if (alts.some((w) => view.href.has(w))) return HREF;
  if (alts.some((w) => view.around.has(w))) return AROUND;
  if (alts.some((w) => view.section.has(w))) return SECTION;
  if (alts.some((w) => view.page.has(w))) return PAGE;
  return 0;
}

/** Verbs that say what a control does: a control named by one does something the instruction did not ask for. */
const ACTIONS = new Set(
  [
    'add', 'remove', 'delete', 'edit', 'save', 'cancel', 'buy', 'subscribe', 'unsubscribe', 'share', 'download', 'upload', 'send',
    'submit', 'apply', 'reset', 'follow', 'unfollow', 'invite', 'create', 'close', 'dismiss', 'accept', 'reject', 'decline', 'confirm',
    'book', 'join', 'like', 'reply', 'report', 'print', 'copy', 'export', 'import', 'archive', 'restore', 'approve', 'pay', 'request',
    'signin', 'signout', 'signup', 'install', 'uninstall', 'publish', 'rename', 'move', 'duplicate', 'clear', 'checkout', 'continue',
  ].map(stem),
);

function namesAnotherAction(view: ElementView, asked: Set<string>): boolean {
  // A box's label states a fact ("Send me product updates"); only controls that do something are named by their action.
  if (isCheckable(view.element) || isEditable(view.element) || isSelectable(view.element)) return false;
  const first = view.name[0];
  return first !== undefined && ACTIONS.has(first) && !asked.has(first);
}

/** The option whose words appear together in the phrase (the longest such), or the one a quoted name equals. */
function optionNamed(options: string[][], phrase: TargetPhrase): number | undefined {
  let best: number | undefined;
  options.forEach((option, i) => {
    if (option.length === 0) return;
    const fits = (phrase.quoted && sameSequence(option, phrase.quoted)) || containsSequence(phrase.words, option);
    if (fits && (best === undefined || option.length > options[best]!.length)) best = i;
  });
  return best;
}

/**
 * The one option that the phrase's words point to when none is named whole ("sort by price" for
 * "Price (lowest first)"): every word not on the element itself that some option holds is held by
 * that option alone. Undefined when the words point to none, or to several.
 */
function optionHinted(view: ElementView, words: string[]): number | undefined {
  let found: number | undefined;
  for (const word of words) {
    if (alternatives(word).some((w) => view.own.has(w))) continue;
    const holders = view.options.flatMap((option, i) => (option.some((o) => alternatives(word).includes(o)) ? [i] : []));
    if (holders.length === 0) continue;
    if (holders.length > 1 || (found !== undefined && found !== holders[0])) return undefined;
    found = holders[0];
  }
  return found;
}

function sameSequence(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((w, i) => alternatives(b[i]!).includes(w));
}

function containsSequence(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, j) => alternatives(w).includes(haystack[i + j]!))) return true;
  }
  return false;
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function sameRank(a: number[], b: number[]): boolean {
  return compareRank(a, b) === 0;
}

/** For a refusal: the elements that match part of the phrase, else those of the kind asked for. */
function nearest(page: Page, phrase: TargetPhrase, query: TargetQuery): string {
  const fitting = page.views.filter((v) => query.accepts(v.element) && (!phrase.kind || kindFit(v.element, phrase.kind) > 0));
  const words = [...phrase.words, ...(phrase.quoted ?? [])];
  const partial = fitting.filter((v) => words.some((w) => levelOf(v, w) >= HREF));
  const shown = (partial.length > 0 ? partial : fitting).slice(0, 5);
  if (shown.length === 0) return '';
  return `; ${partial.length > 0 ? 'closest' : 'candidates'}: ${list(shown)}`;
}

function list(views: ElementView[]): string {
  return views
    .slice(0, 5)
    .map((v) => `[${v.element.id}] ${describeElement(v.element)}${hint(v)}`)
    .join(', ');
}

function hint(view: ElementView): string {
  const near = view.element.context;
  return near && near !== view.element.name ? ` near "${near.slice(0, 40)}"` : '';
}
