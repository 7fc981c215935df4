// Described values read from the page, by three documented rules: "the text of <element>" (a field's
// value, else the element's text, else a "Label: value" the page prints), "the <column> of <row>"
// in a table (found by its column and row headers), and "it"/"that" for what an earlier step read.
// Anything else is refused: a description is never typed as words.
import { isEditable } from './element-kinds.js';
import { labelledValue, sameWords, tables } from './extract.js';
import { findTarget, queryFor } from './match-target.js';
import { describeElement, type Page } from './page-view.js';
import type { ValueSource } from './step-values.js';

export type ReadValue = { value: string } | { failure: string };

const MASKED = '••••';

/** `earlier`: what an earlier step of the same instruction read, if one did. */
export function readValue(page: Page, source: ValueSource, earlier: string | undefined): ReadValue {
  switch (source.kind) {
    case 'earlier':
      return earlier === undefined ? { failure: '"it" refers to no value an earlier step read (say "copy the text of <element>" first, or quote the value)' } : { value: earlier };
    case 'textOf':
      return textOf(page, source.target);
    case 'cell':
      return cellOf(page, source.row, source.column);
  }
}

export function textOf(page: Page, target: string): ReadValue {
  const found = findTarget(page, queryFor('any', target));
  if (!('failure' in found)) {
    const e = found.element;
    const text = isEditable(e) || e.tag === 'textarea' ? e.value : e.selected ?? e.name;
    if (text === MASKED) return { failure: `the value of [${e.id}] ${describeElement(e)} is hidden and is not read` };
    if (text !== undefined && text !== '') return { value: text };
  }
  const labelled = labelledValue(page, target.replace(/^(?:the|a|an) /i, ''));
  if (labelled !== undefined && labelled !== MASKED) return { value: labelled };
  return { failure: `found no text for "${target}" on the page${'failure' in found ? ` (${found.failure})` : ''}` };
}

function cellOf(page: Page, row: string, column: string): ReadValue {
  const hits: string[] = [];
  for (const table of tables(page)) {
    const [header, ...body] = table;
    const col = header?.findIndex((h) => namesColumn(h, column)) ?? -1;
    if (col < 0) continue;
    for (const r of body) if (r.some((cell, i) => i !== col && sameWords(cell, row.replace(/^(?:the|a|an) /i, ''))) && r[col] !== undefined) hits.push(r[col]!);
  }
  if (hits.length === 1) return { value: hits[0]! };
  return { failure: hits.length === 0 ? `no table has a "${column}" column with a "${row}" row` : `"${row}" names ${hits.length} rows with a "${column}" column` };
}

/** Words a column is called by besides its header ("the Pro price" for the column "Pro"). */
const CELL_WORDS = new Set(['price', 'value', 'amount', 'cost', 'number', 'entry', 'cell', 'figure']);

function namesColumn(header: string, phrase: string): boolean {
  if (sameWords(header, phrase)) return true;
  const said = phrase.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const head = header.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return head.length > 0 && head.every((w) => said.includes(w)) && said.every((w) => head.includes(w) || CELL_WORDS.has(w));
}
