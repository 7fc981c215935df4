// Validation of model output against a caller's JSON Schema. zod 4 compiles standard JSON Schema;
// we add OpenAPI's `nullable: true`, which clients of this API commonly send.
import type { JSONSchema7 } from 'ai';
import { z } from 'zod';

export type JSONSchema = JSONSchema7;

/** Returns a readable list of problems, or undefined when the value matches. */
export function validateAgainstSchema(schema: JSONSchema, value: unknown): string | undefined {
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(withNullable(schema) as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return `the schema itself is not supported: ${(error as Error).message}`;
  }
  const result = validator.safeParse(value);
  return result.success ? undefined : z.prettifyError(result.error);
}

/** Rewrites `{type: T, nullable: true}` to `{type: [T, "null"]}` throughout a schema. */
function withNullable(schema: JSONSchema): JSONSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const { nullable, ...rest } = node as Record<string, unknown>;
    const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, k === 'enum' || k === 'const' ? v : visit(v)]));
    if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
    return out;
  };
  return visit(schema) as JSONSchema;
}
