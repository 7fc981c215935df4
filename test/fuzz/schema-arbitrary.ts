// Values that satisfy a schema of openapi.yaml, as fast-check arbitraries: the fuzz test's "valid"
// requests. Covers the JSON Schema the contract uses ($ref, const, enum, anyOf/oneOf, type lists,
// objects with required and additional properties, arrays, string and number bounds, patterns).
import fc from 'fast-check';

export type Schema = Record<string, any>;

export class SchemaArbitraries {
  /** `overrides` replace the generator of one property, named `Component.property`. */
  constructor(
    private readonly spec: Schema,
    private readonly overrides: Record<string, fc.Arbitrary<unknown>> = {},
  ) {}

  /** Resolves a local `#/…` reference. */
  resolve(schema: Schema): Schema {
    if (typeof schema.$ref !== 'string') return schema;
    const target = schema.$ref
      .slice(2)
      .split('/')
      .reduce((node: any, key: string) => node?.[key], this.spec);
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    return this.resolve(target);
  }

  valueOf(raw: Schema | undefined): fc.Arbitrary<unknown> {
    if (!raw || Object.keys(raw).filter((k) => k !== 'description' && k !== 'title').length === 0) return anyJson();
    const schema = this.resolve(raw);
    const name = typeof raw.$ref === 'string' ? raw.$ref.split('/').at(-1) : undefined;
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
    const union = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(union)) return fc.oneof(...union.map((member: Schema) => this.valueOf(member)));
    if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => this.valueOf({ ...schema, type })));
    switch (schema.type) {
      case 'object':
        return this.objectOf(schema, name);
      case 'array':
        return fc.array(this.valueOf(schema.items), { maxLength: 4 });
      case 'string':
        return stringOf(schema);
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
      case 'number':
        return numberOf(schema);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        return anyJson();
    }
  }

  private objectOf(schema: Schema, component?: string): fc.Arbitrary<unknown> {
    const properties: Record<string, Schema> = schema.properties ?? {};
    const required: string[] = schema.required ?? [];
    const known = fc.record(
      Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, this.overrides[`${component}.${name}`] ?? this.valueOf(sub)])),
      { requiredKeys: required.filter((name) => name in properties) },
    );
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') {
      return fc.tuple(known, fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), this.valueOf(extra), { maxKeys: 3 })).map(([a, b]) => ({ ...b, ...a }));
    }
    if (Object.keys(properties).length === 0 && extra !== false) return fc.dictionary(fc.string({ maxLength: 8 }), anyJson(), { maxKeys: 4 });
    return known;
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  if (schema.format === 'uri') return fc.webUrl();
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme' });
}

function numberOf(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e9;
  const max = schema.maximum ?? 1e9;
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .filter((n) => schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum)
    .map((n) => (Object.is(n, -0) ? 0 : n));
}

/** Any small JSON value, for schemas that leave the shape open. */
export function anyJson(): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 2 });
}

/**
 * JSON Schemas of the kind clients send to extract (nested objects, arrays, unions, enums), now and
 * then with a keyword holding something a JSON Schema never would: the contract only says "object".
 */
export function jsonSchema(): fc.Arbitrary<unknown> {
  const name = fc.string({ minLength: 1, maxLength: 10 });
  const sometimesOdd = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: usual }, { weight: 1, arbitrary: anyJson() });
  const { node } = fc.letrec((tie) => ({
    node: fc.oneof(
      { maxDepth: 4, depthSize: 'small' },
      fc.record({ type: sometimesOdd(fc.constantFrom('string', 'number', 'integer', 'boolean', 'null')), description: fc.string({ maxLength: 20 }), nullable: fc.boolean() }, { requiredKeys: ['type'] }),
      fc.record({ type: fc.constant('array'), items: sometimesOdd(tie('node')) }, { requiredKeys: ['type'] }),
      fc.record(
        {
          type: fc.constant('object'),
          properties: sometimesOdd(fc.dictionary(name, sometimesOdd(tie('node')), { maxKeys: 4 })),
          required: sometimesOdd(fc.array(name, { maxLength: 2 })),
          additionalProperties: fc.boolean(),
        },
        { requiredKeys: ['type', 'properties'] },
      ),
      fc.record({ anyOf: sometimesOdd(fc.array(tie('node'), { minLength: 1, maxLength: 3 })) }),
      fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 3 }) }),
    ),
  }));
  return node;
}
