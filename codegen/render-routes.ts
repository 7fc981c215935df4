// Renders one @hono/zod-openapi route per operation, wired to the generated zod schemas.
import type { Endpoint } from './endpoints';

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function renderRoute(op: Endpoint): string {
  const request: string[] = [];
  if (op.params) request.push(`params: z.${op.params}`);
  if (op.query) request.push(`query: z.${op.query}`);
  if (op.headers) request.push(`headers: z.${op.headers}`);
  if (op.body) {
    request.push(
      `body: { required: ${op.body.required}, content: { 'application/json': { schema: z.${op.body.schema} } } }`,
    );
  }
  const responses = Object.entries(op.responses).map(([status, r]) => {
    const content: string[] = [];
    if (r.json) content.push(`'application/json': { schema: z.${r.json} }`);
    if (r.sse) content.push(`'text/event-stream': { schema: z.zEventStream }`);
    return `    ${status}: { description: ${JSON.stringify(r.description)}${content.length ? `, content: { ${content.join(', ')} }` : ''} },`;
  });
  return [
    `export const ${op.operationId} = createRoute({`,
    `  operationId: '${op.operationId}',`,
    `  method: '${op.method}',`,
    `  path: '${honoPath(op.path)}',`,
    `  summary: ${JSON.stringify(op.summary)},`,
    `  request: { ${request.join(', ')} },`,
    `  responses: {`,
    ...responses,
    `  },`,
    `});`,
  ].join('\n');
}

export function renderRoutes(endpoints: Endpoint[]): string {
  return [
    `import { createRoute } from '@hono/zod-openapi';`,
    `import { z } from '@deckhand/contract';`,
    '',
    endpoints.map(renderRoute).join('\n\n'),
    '',
    `/** Every route by operation id: the table the server's handlers must cover. */`,
    `export const routes = {`,
    ...endpoints.map((op) => `  ${op.operationId},`),
    `};`,
    '',
  ].join('\n');
}
