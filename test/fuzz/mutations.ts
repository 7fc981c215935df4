// Ways to break a valid request body: a node of the wrong type, a property the schema does not
// know, a required one missing, huge, deep or odd values, and bodies that are not JSON at all.
import fc from 'fast-check';
import { anyJson } from './schema-arbitrary';

/** Strings that have broken parsers, loggers and browsers before. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\n',
  '\u0007\u001b[31m',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Eevil',
  '\u200B\u200D\uFEFF',
  '😀👨‍👩‍👧',
  '%00',
  '%',
  '../../../../etc/passwd',
  'file:///etc/passwd',
  'javascript:alert(1)',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '${{7*7}}',
  '%password%',
  'NaN',
  '-1',
  '1e309',
];

const ODD_NUMBERS = [0, -0, -1, 0.5, 1e-300, 1e308, -1e308, 2 ** 53 + 1, 2 ** 31, 4_294_967_296, 1e300];

/** A body as JSON text, or bytes that are not a JSON body at all. */
export type Body = { kind: 'json'; value: unknown } | { kind: 'text'; text: string };

export type Mutation = (value: unknown, pick: number) => unknown;

export interface NamedMutation {
  name: string;
  apply: Mutation;
}

/** Every node of a value with its parent and key, in document order. */
function nodesOf(value: unknown): Array<{ parent: any; key: string | number; node: unknown }> {
  const out: Array<{ parent: any; key: string | number; node: unknown }> = [];
  const visit = (parent: any, key: string | number, node: unknown) => {
    out.push({ parent, key, node });
    if (Array.isArray(node)) node.forEach((child, i) => visit(node, i, child));
    else if (node && typeof node === 'object') for (const [k, child] of Object.entries(node)) visit(node, k, child);
  };
  visit({ root: value }, 'root', value);
  return out;
}

/** Replaces the `pick`-th node (modulo) with what `make` builds from it. */
function atNode(value: unknown, pick: number, make: (node: unknown) => unknown, only?: (node: unknown) => boolean): unknown {
  const holder = { root: structuredClone(value) };
  const nodes = nodesOf(holder.root).map((entry, i) => (i === 0 ? { ...entry, parent: holder } : entry)).filter((entry) => !only || only(entry.node));
  if (nodes.length === 0) return holder.root;
  const chosen = nodes[pick % nodes.length]!;
  chosen.parent[chosen.key] = make(chosen.node);
  return holder.root;
}

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = asArray ? [node] : { a: node };
  return node;
}

const isObject = (node: unknown) => Boolean(node) && typeof node === 'object' && !Array.isArray(node);

/** The mutations, each with the arbitrary of its own parameter. */
export const mutation: fc.Arbitrary<NamedMutation> = fc.oneof<fc.Arbitrary<NamedMutation>[]>(
  fc.constantFrom(1, 'text', true, null, [], {}, [1, 'x'], { x: 1 }).map((other): NamedMutation => ({
    name: 'wrong type',
    apply: (value, pick) => atNode(value, pick, () => other),
  })),
  fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'streamResponse', 'x'.repeat(300), '\u0000'), anyJson()).map(([key, extra]): NamedMutation => ({
    name: 'extra property',
    apply: (value, pick) => atNode(value, pick, (node) => Object.assign(Object.create(null), node, { [key]: extra }), isObject),
  })),
  fc.constant({
    name: 'missing property',
    apply: (value: unknown, pick: number) =>
      atNode(value, pick, (node) => Object.fromEntries(Object.entries(node as object).slice(1)), (node) => isObject(node) && Object.keys(node as object).length > 0),
  }),
  fc.constantFrom(...ODD_STRINGS).map((odd): NamedMutation => ({ name: 'odd string', apply: (value, pick) => atNode(value, pick, () => odd) })),
  fc.constantFrom(...ODD_NUMBERS).map((odd): NamedMutation => ({ name: 'odd number', apply: (value, pick) => atNode(value, pick, () => odd) })),
  fc.constantFrom(70_000, 300_000).map((length): NamedMutation => ({
    name: 'huge string',
    apply: (value, pick) => atNode(value, pick, () => 'ü'.repeat(length / 2)),
  })),
  fc.tuple(fc.constantFrom(65, 200, 1_000), fc.boolean()).map(([depth, asArray]): NamedMutation => ({
    name: 'deep value',
    apply: (value, pick) => atNode(value, pick, () => nested(depth, 'x', asArray)),
  })),
  fc.constantFrom(70, 1_000).map((depth): NamedMutation => ({
    name: 'deep JSON Schema',
    apply: (value, pick) => atNode(value, pick, (node) => {
      let schema = node;
      for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
      return schema;
    }),
  })),
  fc.constantFrom(12_000, 40_000).map((length): NamedMutation => ({
    name: 'many values',
    apply: (value, pick) => atNode(value, pick, () => Array.from({ length }, (_, i) => i)),
  })),
);

/** Bodies that are not a JSON object of the right kind, or not JSON at all. */
export const brokenText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '{', '{"a":', 'null', '[]', '"text"', '1e999', 'true', '{"a":1,"a":2}', '\u0000', '\uFEFF{}', '{"__proto__":{"x":1}}'),
  fc.constantFrom(5_000, 100_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.constantFrom(3_000).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  fc.string({ maxLength: 60, unit: 'binary' }),
);
