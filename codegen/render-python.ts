// Renders the Python client's wire shapes (clients/python/deckhand/_gen_shapes.py) from openapi.yaml:
// a TypedDict or type alias per component schema (inline objects get a class of their own), the
// endpoints the client calls, and the schemas themselves as data, which the client's tests check
// every request it sends and every answer it reads against. A stale file fails
// test/python/python-client.test.ts, which renders it again and compares.

type Json = Record<string, any>;

const refName = (ref: string) => ref.split('/').pop()!;
const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);

/** A JSON value as a Python literal. */
export function pyLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(value as Json)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pyLiteral(v)}`)
    .join(', ')}}`;
}

interface PyClass {
  name: string;
  description?: string;
  fields: Array<{ name: string; type: string; required: boolean }>;
}

class Renderer {
  readonly classes: PyClass[] = [];
  readonly aliases = new Map<string, { type: string; refs: Set<string> }>();
  private refs = new Set<string>();

  /** The Python type of a schema; inline objects with properties become classes named `hint`. */
  type(schema: Json, hint: string): string {
    if (schema.$ref) {
      this.refs.add(refName(schema.$ref));
      return refName(schema.$ref);
    }
    if ('const' in schema) return `Literal[${pyLiteral(schema.const)}]`;
    if (schema.enum) return `Literal[${schema.enum.map(pyLiteral).join(', ')}]`;
    const branches = schema.anyOf ?? schema.oneOf;
    if (branches) {
      return union(branches.map((branch: Json, i: number) => this.type(branch, branch.title ?? (branch.type === 'object' ? `${hint}Object` : `${hint}${i}`))));
    }
    if (Array.isArray(schema.type)) return union(schema.type.map((t: string) => this.type({ ...schema, type: t }, hint)));
    switch (schema.type) {
      case 'string':
        return 'str';
      case 'number':
        return 'float';
      case 'integer':
        return 'int';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `list[${schema.items ? this.type(schema.items, `${hint}Item`) : 'Any'}]`;
      case 'object':
        if (schema.properties && Object.keys(schema.properties).length > 0) {
          this.object(hint, schema);
          return hint;
        }
        if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
          return `dict[str, ${this.type(schema.additionalProperties, `${hint}Value`)}]`;
        }
        return 'dict[str, Any]';
      default:
        return 'Any';
    }
  }

  object(name: string, schema: Json): void {
    const required = new Set<string>(schema.required ?? []);
    const fields = Object.entries<Json>(schema.properties ?? {}).map(([field, property]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field) || PY_KEYWORDS.has(field)) {
        throw new Error(`render-python: ${name}.${field} is not a Python identifier; render this class in the functional TypedDict form`);
      }
      return { name: field, type: this.type(property, `${name}${pascal(field)}`), required: required.has(field) };
    });
    this.classes.push({ name, description: schema.description, fields });
  }

  component(name: string, schema: Json): void {
    const isObject = (schema.type === 'object' && schema.properties && Object.keys(schema.properties).length > 0) || (!schema.type && schema.properties);
    if (isObject) return this.object(name, { type: 'object', ...schema });
    this.refs = new Set();
    const type = this.type(schema, name);
    this.aliases.set(name, { type, refs: this.refs });
  }
}

function union(types: string[]): string {
  return [...new Set(types)].join(' | ');
}

/** Aliases in an order where each one's referenced aliases come first (classes are all defined before). */
function orderedAliases(aliases: Renderer['aliases']): string[] {
  const done: string[] = [];
  const visit = (name: string) => {
    if (done.includes(name)) return;
    for (const ref of aliases.get(name)!.refs) if (aliases.has(ref) && ref !== name) visit(ref);
    done.push(name);
  };
  for (const name of aliases.keys()) visit(name);
  return done;
}

function docstring(text: string | undefined): string[] {
  if (!text) return [];
  const oneLine = text.trim().replace(/\s+/g, ' ').replaceAll('\\', '\\\\').replaceAll('"""', '\\"\\"\\"');
  return [`    """${oneLine}"""`, ''];
}

export function renderPython(spec: Json): string {
  const renderer = new Renderer();
  const schemas = spec.components.schemas as Record<string, Json>;
  for (const [name, schema] of Object.entries(schemas)) renderer.component(name, schema);

  const endpoints: string[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths)) {
    for (const method of ['get', 'post', 'delete'] as const) {
      const op = item[method];
      if (!op) continue;
      const body = op.requestBody?.content?.['application/json']?.schema?.$ref;
      const ok = op.responses['200'] ?? op.responses['101'];
      const answer = ok?.content?.['application/json']?.schema?.$ref;
      const streams = Boolean(ok?.content?.['text/event-stream']);
      endpoints.push(
        `    ${JSON.stringify(op.operationId)}: Endpoint(${JSON.stringify(method.toUpperCase())}, ${JSON.stringify(path)}, ${pyLiteral(body ? refName(body) : null)}, ${pyLiteral(answer ? refName(answer) : null)}, ${pyLiteral(streams)}),`,
      );
    }
  }

  const lines = [
    '# Generated by codegen/gen.ts (codegen/render-python.ts) from openapi.yaml. Do not edit.',
    '"""The wire shapes of openapi.yaml: one TypedDict or alias per schema, the endpoints, and the schemas as data."""',
    'from __future__ import annotations',
    '',
    'from typing import Any, Final, Literal, NamedTuple, Required, TypeAlias, TypedDict',
    '',
    '',
    'class Endpoint(NamedTuple):',
    '    method: str',
    '    path: str',
    '    request: str | None',
    '    """The request body\'s schema name, if it has a JSON body."""',
    '    response: str | None',
    '    """The 200 answer\'s schema name, if it is JSON."""',
    '    streams: bool',
    '    """Whether it also answers as a server-sent event stream."""',
    '',
    '',
  ];
  for (const cls of renderer.classes) {
    lines.push(`class ${cls.name}(TypedDict, total=False):`, ...docstring(cls.description));
    if (cls.fields.length === 0) lines.push('    pass');
    for (const field of cls.fields) lines.push(`    ${field.name}: ${field.required ? `Required[${field.type}]` : field.type}`);
    lines.push('', '');
  }
  for (const name of orderedAliases(renderer.aliases)) lines.push(`${name}: TypeAlias = ${renderer.aliases.get(name)!.type}`);
  lines.push(
    '',
    '',
    'ENDPOINTS: Final[dict[str, Endpoint]] = {',
    ...endpoints,
    '}',
    '',
    '# components.schemas of openapi.yaml, for checking values against the contract.',
    'SCHEMAS: Final[dict[str, Any]] = {',
    ...Object.entries(schemas).map(([name, schema]) => `    ${JSON.stringify(name)}: ${pyLiteral(schema)},`),
    '}',
    '',
  );
  return lines.join('\n');
}
