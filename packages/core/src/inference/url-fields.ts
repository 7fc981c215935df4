// URL fields in an extraction are answered with element ids and mapped to the snapshot's real hrefs:
// a model that copies URLs out of a page invents or mangles them, one that points at a link cannot.
import type { JSONSchema } from '../models/json-schema.js';
import type { PageSnapshot } from '../snapshot/types.js';

/** A path through an answer: property names, with '*' for "every item of an array". */
export type FieldPath = string[];

const URL_NAME = /(^|_|-|[a-z])(url|href|link|uri)s?$/i;

export function isUrlField(name: string, schema: JSONSchema): boolean {
  return schema.type === 'string' && (schema.format === 'uri' || schema.format === 'url' || URL_NAME.test(name));
}

/** Paths of every URL string field in an object schema. */
export function urlFieldPaths(schema: JSONSchema, path: FieldPath = []): FieldPath[] {
  const out: FieldPath[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (typeof child !== 'object') continue;
    if (isUrlField(name, child)) out.push([...path, name]);
    else if (child.type === 'object') out.push(...urlFieldPaths(child, [...path, name]));
    else if (child.type === 'array' && child.items && typeof child.items === 'object' && !Array.isArray(child.items)) {
      const items = child.items;
      if (items.type === 'object') out.push(...urlFieldPaths(items, [...path, name, '*']));
      else if (isUrlField(name, items)) out.push([...path, name, '*']);
    }
  }
  return out;
}

/** The schema the model answers: URL fields become "the id of the link". */
export function withUrlFieldsAsIds(schema: JSONSchema, paths: FieldPath[]): JSONSchema {
  const copy = structuredClone(schema);
  for (const path of paths) {
    let node: JSONSchema = copy;
    for (const step of path.slice(0, -1)) node = (step === '*' ? node.items : node.properties?.[step]) as JSONSchema;
    const last = path[path.length - 1] as string;
    const idField: JSONSchema = {
      type: 'string',
      description: 'The id (number in square brackets) of the page element whose link this is',
    };
    if (last === '*') node.items = idField;
    else if (node.properties) node.properties[last] = idField;
  }
  return copy;
}

/** Applies `fn` to every value found at `paths` in `value`, returning a new value. */
export function mapFields(value: unknown, paths: FieldPath[], fn: (field: unknown) => unknown): unknown {
  const at = (node: unknown, path: FieldPath): unknown => {
    if (path.length === 0) return fn(node);
    const [step, ...rest] = path;
    if (step === '*') return Array.isArray(node) ? node.map((item) => at(item, rest)) : node;
    if (!node || typeof node !== 'object' || !(step! in node)) return node;
    return { ...(node as object), [step!]: at((node as Record<string, unknown>)[step!], rest) };
  };
  return paths.reduce(at, value);
}

/** The absolute URL a link element points to, or undefined when the id is not a link on the page. */
export function hrefOf(snapshot: PageSnapshot, id: unknown): string | undefined {
  const href = typeof id === 'string' || typeof id === 'number' ? snapshot.elements.get(String(id).replace(/[[\]]/g, ''))?.href : undefined;
  if (!href) return undefined;
  try {
    return new URL(href, snapshot.url).href;
  } catch {
    return href;
  }
}
