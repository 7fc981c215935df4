// Extraction without a model: page text, links, headings, tables, and schema fields that the page
// labels plainly ("Price: $12", a labelled field, a table column). Questions that need reading
// comprehension are refused with a clear error instead of being answered badly.
import { DeckhandError } from '../../errors.js';
import { validateAgainstSchema, type JSONSchema } from '../../models/json-schema.js';
import { planExtraction } from '../extract-plan.js';
import type { ExtractInput } from '../types.js';
import { hrefOf, isUrlField } from '../url-fields.js';
import { readPage, type Page } from './page-view.js';
import { outlineText, type OutlineLine } from './outline.js';

const CANNOT =
  'The built-in offline model reads page text, links, headings, tables and plainly labelled values; configure a model in options.model for other extractions';

export function extractFromPage({ instruction, schema, snapshot }: ExtractInput): unknown {
  const page = readPage(snapshot);
  if (!schema) return { extraction: answer(page, instruction ?? '') };
  const plan = planExtraction(schema);
  const wrapped = plan.schema !== schema;
  const missing: string[] = [];
  const value = readObject(page, plan.schema, [], missing, wrapped ? instruction : undefined);
  if (missing.length > 0) throw new DeckhandError('unprocessable', `Could not find ${missing.join(', ')} on the page. ${CANNOT}.`);
  // Nothing the schema asks for is on the page: an empty answer would read as a success.
  const asked = Object.keys(plan.schema.properties ?? {});
  if (asked.length > 0 && Object.keys(value).length === 0) throw new DeckhandError('unprocessable', `Could not find any of ${asked.join(', ')} on the page. ${CANNOT}.`);
  const problem = validateAgainstSchema(plan.schema, value);
  if (problem) throw new DeckhandError('unprocessable', `What the page shows does not fit the schema: ${problem}. ${CANNOT}.`);
  return plan.finish(value);
}

function answer(page: Page, instruction: string): string {
  const q = instruction.toLowerCase();
  if (/\b(links?|urls?)\b/.test(q)) return links(page).map((l) => `${l.text}: ${l.url}`).join('\n');
  if (/\btables?\b/.test(q)) return tables(page).map((rows) => rows.map((r) => r.join('\t')).join('\n')).join('\n\n');
  if (/\b(title|main heading|headline)\b/.test(q)) return mainHeading(page) ?? refuse(instruction);
  if (/\bheadings\b/.test(q)) return headings(page).map((h) => h.name).join('\n');
  if (/\b(all |the |page |visible )*(text|content)\b/.test(q)) return outlineText(page.lines);
  return refuse(instruction);
}

function refuse(instruction: string): never {
  throw new DeckhandError('unprocessable', `Cannot answer "${instruction}" without a model. ${CANNOT}.`);
}

function readObject(page: Page, schema: JSONSchema, path: string[], missing: string[], hint?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (typeof child !== 'object') continue;
    const label = name === 'value' && hint ? hint : name;
    const value = readField(page, label, name, child, [...path, name], missing);
    if (value !== undefined) out[name] = value;
    else if (required.has(name)) missing.push([...path, name].join('.'));
  }
  return out;
}

function readField(page: Page, label: string, name: string, schema: JSONSchema, path: string[], missing: string[]): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object') {
    const found = readObject(page, schema, path, missing);
    return Object.keys(found).length > 0 || !schema.properties ? found : undefined;
  }
  if (type === 'array') return readList(page, label, schema.items as JSONSchema | undefined);
  if (type === 'string' && isUrlField(name, schema)) return linkNamed(page, label);
  if (type === 'boolean') return checkboxNamed(page, label);
  const text = labelledValue(page, label) ?? (/^(title|heading|headline|name)$/i.test(label) ? mainHeading(page) : undefined);
  if (text === undefined) return undefined;
  return type === 'number' || type === 'integer' ? toNumber(text) : text;
}

function readList(page: Page, label: string, items: JSONSchema | undefined): unknown[] | undefined {
  if (!items || typeof items !== 'object') return undefined;
  const props = Object.entries(items.properties ?? {}) as Array<[string, JSONSchema]>;
  if (items.type === 'string') {
    if (isUrlField(label, items)) return links(page).map((l) => l.url);
    if (/links?$/i.test(label)) return links(page).map((l) => l.text);
    if (/headings?$/i.test(label)) return headings(page).map((h) => h.name);
    return undefined;
  }
  if (items.type !== 'object') return undefined;
  const table = tableFor(page, props);
  if (!table && props.some(([n, s]) => isUrlField(n, s))) {
    return links(page).map((l) => Object.fromEntries(props.map(([n, s]) => [n, isUrlField(n, s) ? l.url : l.text])));
  }
  if (!table) return undefined;
  const [header, ...rows] = table;
  return rows.map((row) =>
    Object.fromEntries(
      props.flatMap(([n, s]) => {
        const col = header!.findIndex((h) => sameWords(h, n));
        const cell = col >= 0 ? row[col] : undefined;
        if (cell === undefined) return [];
        return [[n, s.type === 'number' || s.type === 'integer' ? toNumber(cell) : cell]];
      }),
    ),
  );
}

/** The first table whose header names at least one of the item's properties. */
function tableFor(page: Page, props: Array<[string, JSONSchema]>): string[][] | undefined {
  return tables(page).find((t) => t[0] && props.some(([n]) => t[0]!.some((h) => sameWords(h, n))));
}

function links(page: Page): Array<{ text: string; url: string }> {
  return [...page.snapshot.elements.values()]
    .filter((e) => e.role === 'link' && e.href)
    .map((e) => ({ text: e.name, url: hrefOf(page.snapshot, e.id)! }));
}

function linkNamed(page: Page, label: string): string | undefined {
  const wanted = words(label).filter((w) => !['url', 'link', 'href', 'uri'].includes(w));
  const link = [...page.snapshot.elements.values()].find((e) => e.role === 'link' && e.href && wanted.every((w) => words(e.name).includes(w)));
  return link && hrefOf(page.snapshot, link.id);
}

function checkboxNamed(page: Page, label: string): boolean | undefined {
  const box = [...page.snapshot.elements.values()].find((e) => e.checked !== undefined && sameWords(e.name, label));
  return box ? box.checked === true : undefined;
}

function headings(page: Page): OutlineLine[] {
  return page.lines.filter((l) => l.role === 'heading');
}

function mainHeading(page: Page): string | undefined {
  const all = headings(page);
  return (all.find((h) => h.level === 1) ?? all[0])?.name;
}

/** "Price: $12" on one line, "Price" then "$12" on the next, a labelled field's value, or a two-column table row. */
export function labelledValue(page: Page, label: string): string | undefined {
  const { lines } = page;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = /^([^:]{1,60}):\s*(.+)$/.exec(line.name);
    if (colon && sameWords(colon[1]!, label)) return colon[2]!.trim();
    if (line.role === undefined && sameWords(line.name, label.replace(/:$/, ''))) {
      const next = lines[i + 1];
      if (next && next.name) return next.name;
    }
  }
  const field = [...page.snapshot.elements.values()].find((e) => e.value !== undefined && sameWords(e.name, label));
  if (field) return field.value;
  for (const table of tables(page)) {
    const row = table.find((r) => r.length === 2 && sameWords(r[0]!, label));
    if (row) return row[1];
  }
  return undefined;
}

/** Tables as rows of cell texts, header row first. */
export function tables(page: Page): string[][][] {
  const { lines } = page;
  const out: string[][][] = [];
  lines.forEach((line, i) => {
    if (line.role !== 'table' && line.role !== 'grid') return;
    const rows: string[][] = [];
    for (let j = i + 1; j < lines.length && lines[j]!.depth > line.depth; j++) {
      const row = lines[j]!;
      if (row.role !== 'row') continue;
      const cells: string[] = [];
      for (let k = j + 1; k < lines.length && lines[k]!.depth > row.depth; k++) {
        if (lines[k]!.depth === row.depth + 1) cells.push(lines[k]!.name);
      }
      rows.push(cells.length > 0 ? cells : [row.name]);
    }
    if (rows.length > 0) out.push(rows);
  });
  return out;
}

/** Words of a label, splitting camelCase and snake_case: "unitPrice" → ["unit", "price"]. */
function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function sameWords(a: string, b: string): boolean {
  return words(a).join(' ') === words(b).join(' ');
}

function toNumber(text: string): number | string {
  const n = Number(text.replace(/[^\d.-]/g, ''));
  return text.match(/\d/) && Number.isFinite(n) ? n : text;
}
