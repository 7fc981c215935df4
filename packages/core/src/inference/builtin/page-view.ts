// The snapshot as the built-in model reads it: the outline's lines, and for each element the words
// it is known by (its name), the words of its link, and the words around it (its row or card, the
// text before it, the groups and the section it sits in).
import type { PageSnapshot, SnapshotElement } from '../../snapshot/types.js';
import { isCheckable, isEditable, isSelectable } from './element-kinds.js';
import { parseOutline, surroundingsOf, type OutlineLine } from './outline.js';
import { stem, stems, tokens } from './words.js';

export interface ElementView {
  element: SnapshotElement;
  line?: OutlineLine;
  /** Document order. */
  index: number;
  /** Stems of its own name, in order: the accessible name, else the text that labels it. */
  name: string[];
  /** Stems of its name and placeholder. */
  own: Set<string>;
  /** Stems of every word of its name, linking words too ("About"). */
  ownAll: Set<string>;
  /** Stems of a link's address (path and fragment). */
  href: Set<string>;
  /** Stems of its row, card or list item, the text just before it, and the groups around it. */
  around: Set<string>;
  /** Stems of the heading of the section it is in. */
  section: Set<string>;
  /** Stems of the page's title (shared by all elements). */
  page: Set<string>;
  /** Stems of each listed option of a dropdown. */
  options: string[][];
  /** Inside a dialog (an open modal, a popup window). */
  inDialog: boolean;
}

/** The snapshot with its outline read once, for all lookups of one instruction. */
export interface Page {
  snapshot: PageSnapshot;
  lines: OutlineLine[];
  lineOf: Map<string, OutlineLine>;
  views: ElementView[];
}

export function readPage(snapshot: PageSnapshot): Page {
  const lines = parseOutline(snapshot.text);
  const lineOf = new Map(lines.filter((l) => l.id).map((l) => [l.id!, l]));
  const headingBefore = headingsByLine(lines);
  const title = new Set(stems(/^page ("(?:[^"\\]|\\.)*")/.exec(snapshot.text)?.[1] ?? ''));
  const views = [...snapshot.elements.values()].map((element, order) => {
    const line = lineOf.get(element.id);
    return viewOf(element, line, line ? line.index : lines.length + order, lines, title, line ? headingBefore[line.index] : undefined);
  });
  views.sort((a, b) => a.index - b.index);
  return { snapshot, lines, lineOf, views };
}

function viewOf(element: SnapshotElement, line: OutlineLine | undefined, index: number, lines: OutlineLine[], title: Set<string>, heading?: string): ElementView {
  const { label, groups, roles } = line ? surroundingsOf(lines, line.index) : { groups: [], roles: [] };
  // An unnamed form control is known by the text that labels it: a <label> not tied to it, or its row's words.
  const shortContext = element.context && element.context.length <= 40 ? element.context : undefined;
  const ownText = element.name || (isFormControl(element) ? (shortContext ?? label ?? '') : '');
  const name = stems(ownText);
  // The text before a button or link whose row is known is the row before's when the row does not hold it (a list of cards).
  const before = label && (isFormControl(element) || !element.context || element.context.includes(label)) ? label : undefined;
  const aroundText = [element.context, before, ...groups].filter(Boolean).join(' ');
  return {
    element,
    line,
    index,
    name,
    own: new Set([...name, ...stems(element.placeholder ?? ''), ...stems(TYPE_WORDS[element.inputType ?? ''] ?? '')]),
    ownAll: new Set(tokens(ownText).map(stem)),
    href: new Set(element.href ? stems(hrefWords(element.href)) : []),
    around: new Set(stems(aroundText)),
    section: new Set(heading && heading !== element.name ? stems(heading) : []),
    page: title,
    options: (element.options ?? []).map((o) => stems(o)),
    inDialog: roles.some((r) => r === 'dialog' || r === 'alertdialog'),
  };
}

/** What a field's input type says it holds: the date field, the email field, the phone field. */
const TYPE_WORDS: Record<string, string> = {
  email: 'email',
  password: 'password',
  tel: 'phone telephone',
  url: 'url website',
  number: 'number',
  date: 'date',
  'datetime-local': 'date time',
  month: 'month',
  week: 'week',
  time: 'time',
  search: 'search',
  color: 'colour color',
};

/** For each line, the text of the nearest heading at or before it. */
function headingsByLine(lines: OutlineLine[]): Array<string | undefined> {
  let last: string | undefined;
  return lines.map((line) => {
    if (line.role === 'heading' && line.name) last = line.name;
    return last;
  });
}

/** The words of a link's address, without scheme or host: "/reset-password" says "reset password". */
function hrefWords(href: string): string {
  const local = href.replace(/^[a-z][\w+.-]*:\/\/[^/]+/i, '').replace(/^mailto:/i, '');
  return local.replace(/[/#?=&._~+-]+/g, ' ');
}

function isFormControl(e: SnapshotElement): boolean {
  return isEditable(e) || isSelectable(e) || isCheckable(e);
}

export function describeElement(element: SnapshotElement): string {
  return `${element.role}${element.name ? ` "${element.name}"` : ''}`;
}
