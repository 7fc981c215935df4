// The fields of a refused body that its operation does not have (`instruction` sent to act, which
// takes `input`), so a 400 says what was sent wrongly, not only what is missing.
import type { RouteConfig } from '@hono/zod-openapi';
import { routes } from './gen/routes.gen';

interface Refused {
  operationId: string;
  fields: ReadonlySet<string>;
}

/** Each operation's top-level body fields, keyed by method and route path as Hono matched them. */
const bodyFields = new Map<string, Refused>(
  Object.values(routes as Record<string, RouteConfig>).flatMap((route) => {
    const media = route.request?.body?.content?.['application/json'] as { schema?: { shape?: Record<string, unknown> } } | undefined;
    const schema = media?.schema;
    if (!schema?.shape || !route.operationId) return [];
    return [[`${route.method.toUpperCase()} ${route.path}`, { operationId: route.operationId, fields: new Set(Object.keys(schema.shape)) }]];
  }),
);

/** `body.<name>: not a field of <operation>` for each top-level field the operation does not take. */
export function unknownBodyFields(method: string, routePath: string, body: unknown): Array<{ path: string; message: string }> {
  const known = bodyFields.get(`${method.toUpperCase()} ${routePath}`);
  if (!known || body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.keys(body)
    .filter((field) => !known.fields.has(field))
    .map((field) => ({ path: `body.${field}`, message: `not a field of ${known.operationId}` }));
}
