// Renders one typed openapi-fetch call per operation: the client's bindings.
import type { Endpoint } from './endpoints';

function renderCall(op: Endpoint): string {
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const args: string[] = [];
  const init: string[] = [];
  for (const name of pathParams) args.push(`${name}: string`);
  if (op.query) args.push(`query: Query<'${op.path}', '${op.method}'>`);
  const params = [pathParams.length ? `path: { ${pathParams.join(', ')} }` : '', op.query ? 'query' : ''].filter(Boolean);
  if (params.length) init.push(`params: { ${params.join(', ')} }`);
  if (op.rawBody) {
    // Bytes go as they are; a FormData body sets its own multipart content type.
    args.push('body: Blob | Uint8Array | FormData');
    init.push('body', 'bodySerializer: (b: unknown) => b');
    init.push("headers: { ...(body instanceof FormData ? {} : { 'content-type': 'application/octet-stream' }), ...init.headers }");
  } else if (op.body) {
    const type = `Body<'${op.path}', '${op.method}'>`;
    args.push(op.body.required ? `body: ${type}` : `body?: ${type}`);
    init.push('body');
  }
  args.push('init: CallInit = {}');
  init.unshift('...init');
  const verb = op.method.toUpperCase();
  return `    ${op.operationId}: (${args.join(', ')}) => client.${verb}('${op.path}', { ${init.join(', ')} } as never),`;
}

export function renderClientEndpoints(endpoints: Endpoint[]): string {
  return [
    `import type { Client } from 'openapi-fetch';`,
    `import type { paths } from '@deckhand/contract';`,
    '',
    `type Body<P extends keyof paths, M extends 'get' | 'post' | 'delete'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;`,
    `type Query<P extends keyof paths, M extends 'get' | 'post' | 'delete'> = paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;`,
    `export interface CallInit { headers?: Record<string, string>; signal?: AbortSignal; parseAs?: 'json' | 'stream' | 'text' | 'arrayBuffer' | 'blob' }`,
    `export type ApiClient = Client<paths, 'application/json'>;`,
    '',
    `/** One typed call per HTTP operation of openapi.yaml (WebSocket endpoints are for CDP clients). */`,
    `export function bindEndpoints(client: ApiClient) {`,
    `  return {`,
    ...endpoints.filter((op) => !op.websocket).map(renderCall),
    `  };`,
    `}`,
    '',
    `export type Endpoints = ReturnType<typeof bindEndpoints>;`,
    '',
  ].join('\n');
}
