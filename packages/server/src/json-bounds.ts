// Bounds on the shape of a JSON request body, checked before validation: nesting depth and the number
// of values. Every reader downstream (validation, JSON Schema compilation, the built-in model, history,
// logs) may recurse over what a client sent, and a JSON Schema nested 3,000 deep overflowed the stack;
// no request to this API needs more than a few levels or a few thousand values.
import { createMiddleware } from 'hono/factory';
import { DeckhandError } from '@deckhand/core';
import type { AppEnv } from './env';

export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_VALUES = 10_000;

export const boundJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'POST' && /json/i.test(c.req.header('content-type') ?? '')) {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return next(); // Malformed JSON is the validator's to report.
    }
    const problem = boundsProblem(body);
    if (problem) throw new DeckhandError('validation_error', `Invalid request: ${problem.path}: ${problem.message}`, [problem]);
  }
  return next();
});

/** The first place `value` crosses a bound, walked without recursion (the point is to survive any depth). */
export function boundsProblem(value: unknown): { path: string; message: string } | undefined {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value, path: ['body'] }];
  let values = 0;
  while (stack.length > 0) {
    const { value: node, path } = stack.pop()!;
    if (++values > MAX_JSON_VALUES) return { path: 'body', message: `has more than ${MAX_JSON_VALUES} values` };
    if (node === null || typeof node !== 'object') continue;
    if (path.length > MAX_JSON_DEPTH) return { path: path.join('.'), message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
    for (const [key, child] of Object.entries(node)) stack.push({ value: child, path: [...path, key] });
  }
  return undefined;
}
