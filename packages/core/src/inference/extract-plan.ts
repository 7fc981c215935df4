// The shape an extraction answer takes, whoever answers it: the caller's object schema as is, a
// non-object schema wrapped under `value` (structured output needs an object at the top), or
// `{extraction}` when there is only an instruction.
import type { JSONSchema } from '../models/json-schema.js';

export interface ExtractPlan {
  /** Object schema the answer must match. */
  schema: JSONSchema;
  /** Turns a valid answer into what the caller asked for. */
  finish(answer: unknown): unknown;
}

const EXTRACTION_SCHEMA: JSONSchema = {
  type: 'object',
  properties: { extraction: { type: 'string', description: 'The requested information, as text' } },
  required: ['extraction'],
};

export function planExtraction(schema: JSONSchema | undefined): ExtractPlan {
  if (!schema) return { schema: EXTRACTION_SCHEMA, finish: (answer) => answer };
  if (isObjectSchema(schema)) return { schema, finish: (answer) => answer };
  return {
    schema: { type: 'object', properties: { value: schema }, required: ['value'] },
    finish: (answer) => (answer as { value: unknown }).value,
  };
}

function isObjectSchema(schema: JSONSchema): boolean {
  return schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined);
}
