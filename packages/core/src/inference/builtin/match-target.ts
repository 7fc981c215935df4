// Finds the element an instruction names, by role, accessible name (which carries the label),
// placeholder and nearby text. A clear best match wins; a tie is reported with the candidates,
// never settled by guessing.
import type { PageSnapshot, SnapshotElement } from '../../snapshot/types.js';
import { contextOf, parseOutline, type OutlineLine } from './outline.js';

/** What the action needs of its target. */
export type TargetKind = 'clickable' | 'editable' | 'selectable' | 'checkable' | 'any' | 'scrollable';

export interface Candidate {
  element: SnapshotElement;
  line?: OutlineLine;
  score: number;
}

export type TargetResult = { element: SnapshotElement; line?: OutlineLine } | { failure: string };

/** The snapshot with its outline read once, for all lookups of one instruction. */
export interface Page {
  snapshot: PageSnapshot;
  lines: OutlineLine[];
  lineOf: Map<string, OutlineLine>;
}

export function readPage(snapshot: PageSnapshot): Page {
  const lines = parseOutline(snapshot.text);
  return { snapshot, lines, lineOf: new Map(lines.filter((l) => l.id).map((l) => [l.id!, l])) };
}

const KIND_ROLES: Record<TargetKind, ((e: SnapshotElement) => boolean) | undefined> = {
  editable: (e) => ['textbox', 'searchbox', 'spinbutton'].includes(e.role) || (e.role === 'combobox' && e.tag === 'input') || e.tag === 'textarea',
  selectable: (e) => ['combobox', 'listbox'].includes(e.role) || e.tag === 'select',
  checkable: (e) => ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(e.role),
  clickable: (e) => !['heading', 'iframe', 'document'].includes(e.role) && e.tag !== 'iframe',
  scrollable: (e) => e.scrollable === true,
  any: undefined,
};

/** Words that name a role rather than the element: "the Email field", "the Sign in button". */
const ROLE_WORDS: Array<[RegExp, string[]]> = [
  // Longer role phrases first: "radio button" is a radio, "check box" is not a text box.
  [/\s+(?:radio(?: button)?|option)s?$/, ['radio', 'option']],
  [/\s+(?:check ?box|tick ?box)(?:es)?$/, ['checkbox']],
  [/\s+(?:text ?box|text field|input(?: field| box)?|field|box)(?:es|s)?$/, ['textbox', 'searchbox', 'combobox', 'spinbutton']],
  [/\s+(?:button|btn)s?$/, ['button']],
  [/\s+links?$/, ['link']],
  [/\s+(?:drop ?down|select(?: box)?|menu|combo ?box|list ?box|list)s?$/, ['combobox', 'listbox']],
  [/\s+(?:switch|toggle)(?:es|s)?$/, ['switch', 'checkbox']],
  [/\s+tabs?$/, ['tab']],
  [/\s+(?:image|icon|picture)s?$/, ['img', 'image']],
];

const ORDINALS: Record<string, number> = { first: 0, '1st': 0, second: 1, '2nd': 1, third: 2, '3rd': 2, last: -1 };
const CONTEXT_SPLIT = /^(.+?)\s+(?:in|inside|within|under|for|next to|near|beside|of|from)\s+(?:the\s+)?(.+)$/i;
/** The best match must name the element this well: every word of the phrase in its name, or an exact label. */
const MIN_SCORE = 40;

interface Phrase {
  words: string[];
  text: string;
  roles?: string[];
  ordinal?: number;
}

export function findTarget(page: Page, phrase: string, kind: TargetKind): TargetResult {
  const direct = pick(page, parsePhrase(phrase), kind, phrase);
  if (!('failure' in direct)) return direct;
  // "the Delete button in the Bob row": retry with the part after "in/for/next to…" as context.
  const split = CONTEXT_SPLIT.exec(stripArticles(phrase));
  if (!split) return direct;
  const within = words(split[2]!).filter((w) => !['row', 'section', 'form', 'area', 'panel', 'dialog', 'page'].includes(w));
  const narrowed = pick(page, parsePhrase(split[1]!), kind, phrase, (c) => hasAll(contextWords(page, c), within));
  return 'failure' in narrowed ? direct : narrowed;
}

/** Every element matching a phrase well enough, best first (for observe). */
export function rankTargets(page: Page, phrase: string, kind: TargetKind): Candidate[] {
  return scoreAll(page, parsePhrase(phrase), kind).filter((c) => c.score >= MIN_SCORE);
}

export function describeElement(element: SnapshotElement): string {
  return `${element.role}${element.name ? ` "${element.name}"` : ''}`;
}

function pick(page: Page, phrase: Phrase, kind: TargetKind, original: string, keep?: (c: Candidate) => boolean): TargetResult {
  let ranked = scoreAll(page, phrase, kind).filter((c) => c.score >= MIN_SCORE && (!keep || keep(c)));
  if (ranked.length === 0) return { failure: `No ${kindLabel(kind)} on the page matches "${original}"` };
  const best = ranked[0]!.score;
  ranked = ranked.filter((c) => c.score === best);
  if (phrase.ordinal !== undefined) {
    const chosen = ranked.at(phrase.ordinal);
    return chosen ? chosen : { failure: `There are only ${ranked.length} elements matching "${original}"` };
  }
  if (ranked.length > 1) {
    const list = ranked
      .slice(0, 5)
      .map((c) => `[${c.element.id}] ${describeElement(c.element)}${contextHint(page, c)}`)
      .join(', ');
    return { failure: `"${original}" is ambiguous: ${ranked.length} elements match equally (${list}); name it more precisely, e.g. "the first …" or "… in <nearby text>"` };
  }
  return ranked[0]!;
}

function scoreAll(page: Page, phrase: Phrase, kind: TargetKind): Candidate[] {
  const fits = KIND_ROLES[kind];
  const out: Candidate[] = [];
  for (const element of page.snapshot.elements.values()) {
    if (fits && !fits(element)) continue;
    const line = page.lineOf.get(element.id);
    const context = line ? contextOf(page.lines, line.index) : [];
    const fields: Array<[string | undefined, number]> = [
      [element.name, 1],
      [element.placeholder, 0.9],
      [context[0], 0.6],
      [context.slice(1).join(' '), 0.3],
      [element.href, 0.3],
    ];
    let score = Math.max(...fields.map(([text, weight]) => (text ? fieldScore(phrase, text) * weight : 0)));
    if (score > 0 && phrase.roles?.includes(element.role)) score += 5;
    if (score > 0) out.push({ element, line, score: Math.round(score * 100) / 100 });
  }
  // Stable by document order for equal scores, so "first"/"last" mean what they say.
  return out.sort((a, b) => b.score - a.score || (a.line?.index ?? 0) - (b.line?.index ?? 0));
}

function fieldScore(phrase: Phrase, text: string): number {
  const field = words(text);
  if (field.length === 0 || phrase.words.length === 0) return 0;
  if (field.join(' ') === phrase.words.join(' ')) return 100;
  if (hasAll(field, phrase.words)) return 70 + 10 * (phrase.words.length / field.length);
  return 0;
}

function parsePhrase(raw: string): Phrase {
  let text = stripArticles(raw.toLowerCase());
  let ordinal: number | undefined;
  const ord = /^(first|second|third|last|1st|2nd|3rd)\s+/.exec(text);
  if (ord) {
    ordinal = ORDINALS[ord[1]!];
    text = text.slice(ord[0].length);
  }
  let roles: string[] | undefined;
  for (const [pattern, names] of ROLE_WORDS) {
    if (pattern.test(text)) {
      roles = names;
      text = text.replace(pattern, '');
      break;
    }
  }
  return { text, words: words(text), roles, ordinal };
}

function stripArticles(text: string): string {
  return text
    .trim()
    .replace(/^(?:on|onto|to|into)\s+/i, '')
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/^["'“](.*)["'”]$/, '$1');
}

/** Lower-case words with a plural "s" dropped, so "Remember me" matches "remember-me" and "items" matches "item". */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w));
}

function hasAll(haystack: string[], needles: string[]): boolean {
  return needles.every((n) => haystack.includes(n));
}

function contextWords(page: Page, c: Candidate): string[] {
  return c.line ? words(contextOf(page.lines, c.line.index).join(' ')) : [];
}

function contextHint(page: Page, c: Candidate): string {
  const near = c.line ? contextOf(page.lines, c.line.index).find((t) => t && t !== c.element.name) : undefined;
  return near ? ` near "${near.slice(0, 40)}"` : '';
}

function kindLabel(kind: TargetKind): string {
  return { clickable: 'element', editable: 'text field', selectable: 'dropdown', checkable: 'checkbox or radio button', any: 'element', scrollable: 'scrollable element' }[kind];
}
