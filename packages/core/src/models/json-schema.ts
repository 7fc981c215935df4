// Validation of model output against a caller's JSON Schema. zod 4 compiles standard JSON Schema;
// we add OpenAPI's `nullable: true`, which clients of this API commonly send. A caller's regular
// expressions (`pattern`, `patternProperties`) are checked for syntax but never run here: a JS RegExp
// runs synchronously, and one that backtracks catastrophically held the event loop for minutes, past
// any deadline. They reach the model in the schema it is shown; the answer is not held to them.
import type { JSONSchema7 } from 'ai';
import { z } from 'zod';
import { DeckhandError } from '../errors.js';

export type JSONSchema = JSONSchema7;

/**
 * A caller's schema is checked before any page or model work: the keywords this server reads itself
 * (type, properties, items, required, the combinators) must have their JSON Schema shapes, and the
 * whole must compile. Anything else is the caller's mistake, a 400 at `schema`.
 */
export function assertUsableSchema(schema: unknown): asserts schema is JSONSchema {
  const problem = shapeProblem(schema, 'schema') ?? compileProblem(schema as JSONSchema);
  if (problem) throw new DeckhandError('validation_error', `Invalid request: ${problem.path}: ${problem.message}`, [problem]);
}

type Problem = { path: string; message: string };

function shapeProblem(node: unknown, path: string): Problem | undefined {
  if (typeof node === 'boolean') return undefined;
  if (!node || typeof node !== 'object' || Array.isArray(node)) return { path, message: 'not a JSON Schema (an object or a boolean)' };
  const schema = node as Record<string, unknown>;
  const { type, properties, items, required } = schema;
  if (type !== undefined && typeof type !== 'string' && !(Array.isArray(type) && type.every((t) => typeof t === 'string'))) {
    return { path: `${path}.type`, message: 'must be a type name or a list of them' };
  }
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === 'string'))) {
    return { path: `${path}.required`, message: 'must be a list of property names' };
  }
  const children: Array<[string, unknown]> = [];
  if (properties !== undefined) {
    if (!properties || typeof properties !== 'object' || Array.isArray(properties)) return { path: `${path}.properties`, message: 'must be an object of schemas' };
    for (const [name, child] of Object.entries(properties)) children.push([`${path}.properties.${name}`, child]);
  }
  if (items !== undefined) {
    if (Array.isArray(items)) items.forEach((child, i) => children.push([`${path}.items.${i}`, child]));
    else children.push([`${path}.items`, items]);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const members = schema[key];
    if (members === undefined) continue;
    if (!Array.isArray(members)) return { path: `${path}.${key}`, message: 'must be a list of schemas' };
    members.forEach((child, i) => children.push([`${path}.${key}.${i}`, child]));
  }
  for (const [childPath, child] of children) {
    const problem = shapeProblem(child, childPath);
    if (problem) return problem;
  }
  return undefined;
}

function compileProblem(schema: JSONSchema): Problem | undefined {
  try {
    z.fromJSONSchema(forValidation(schema, { keepPatterns: true }) as Parameters<typeof z.fromJSONSchema>[0]);
    return undefined;
  } catch (error) {
    return { path: 'schema', message: `not a JSON Schema this server supports: ${(error as Error).message}` };
  }
}

/** Returns a readable list of problems, or undefined when the value matches. */
export function validateAgainstSchema(schema: JSONSchema, value: unknown): string | undefined {
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(forValidation(schema) as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return `the schema itself is not supported: ${(error as Error).message}`;
  }
  const result = validator.safeParse(value);
  return result.success ? undefined : z.prettifyError(result.error);
}

/** Keywords whose value maps names (not keywords) to subschemas. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * The schema a value is checked against: `{type: T, nullable: true}` becomes `{type: [T, "null"]}`,
 * and `pattern` and `patternProperties` are dropped. Without the patterns nobody can tell which names
 * they admit, so a node that had `patternProperties` also drops its `additionalProperties`.
 * `keepPatterns` keeps them, for compiling only: building a RegExp checks its syntax without running it.
 */
function forValidation(schema: JSONSchema, { keepPatterns = false } = {}): JSONSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const { nullable, ...rest } = node as Record<string, unknown>;
    if (!keepPatterns) {
      if (rest.patternProperties !== undefined) delete rest.additionalProperties;
      delete rest.pattern;
      delete rest.patternProperties;
    }
    const out = Object.fromEntries(
      Object.entries(rest).map(([k, v]) => {
        if (k === 'enum' || k === 'const' || k === 'default' || k === 'examples') return [k, v];
        if (SCHEMA_MAPS.has(k) && v && typeof v === 'object' && !Array.isArray(v)) return [k, Object.fromEntries(Object.entries(v).map(([name, child]) => [name, visit(child)]))];
        return [k, visit(v)];
      }),
    );
    if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
    return out;
  };
  return visit(schema) as JSONSchema;
}
