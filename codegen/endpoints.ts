// Reads the endpoints (OpenAPI operations) of openapi.yaml into the small model the renderers need.
// Words: an endpoint is the wire's (operationId, method, path); an operation is what a session does
// (core's operations/: act, observe, extract, navigate), which one or more endpoints expose.

export interface Endpoint {
  operationId: string;
  method: 'get' | 'post' | 'delete';
  path: string;
  summary: string;
  /** Names of generated zod schemas (exported by zod.gen.ts) for each request part, when present. */
  body?: { schema: string; required: boolean };
  /** The body is bytes (application/octet-stream, or multipart/form-data), read by the handler itself. */
  rawBody: boolean;
  headers?: string;
  params?: string;
  query?: string;
  /** status → { description, json schema name?, sse } */
  responses: Record<string, { description: string; json?: string; sse: boolean }>;
  /** Succeeds with 101 Switching Protocols: a WebSocket endpoint, not a call an HTTP client makes. */
  websocket: boolean;
  /** Needs no API key (`security: []`, or outside /v1). */
  public: boolean;
}

type Json = Record<string, any>;

const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const refName = (ref: string) => ref.split('/').pop()!;

function resolveResponse(spec: Json, response: Json): Json {
  return response.$ref ? spec.components.responses[refName(response.$ref)] : response;
}

export function loadEndpoints(spec: Json, zodSource: string): Endpoint[] {
  const exported = new Set([...zodSource.matchAll(/^export const (z\w+)/gm)].map((m) => m[1]));
  const ifExported = (name: string) => (exported.has(name) ? name : undefined);
  const endpoints: Endpoint[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths)) {
    for (const method of ['get', 'post', 'delete'] as const) {
      const op = item[method];
      if (!op) continue;
      const id = pascal(op.operationId);
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const responses: Endpoint['responses'] = {};
      for (const [status, raw] of Object.entries<Json>(op.responses)) {
        const response = resolveResponse(spec, raw);
        const json = response.content?.['application/json']?.schema?.$ref;
        responses[status] = {
          description: response.description,
          json: json ? `z${refName(json)}` : undefined,
          sse: Boolean(response.content?.['text/event-stream']),
        };
      }
      endpoints.push({
        operationId: op.operationId,
        method,
        path,
        summary: op.summary,
        body: bodySchema ? { schema: `z${refName(bodySchema.$ref)}`, required: Boolean(op.requestBody.required) } : undefined,
        rawBody: Boolean(op.requestBody?.content?.['application/octet-stream']),
        headers: ifExported(`z${id}Headers`),
        params: ifExported(`z${id}Path`),
        query: ifExported(`z${id}Query`),
        responses,
        websocket: '101' in responses,
        public: (Array.isArray(op.security) && op.security.length === 0) || !path.startsWith('/v1/'),
      });
    }
  }
  return endpoints;
}
