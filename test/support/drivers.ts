// The contract suite runs twice: over raw HTTP (fetch, paths from the generated operation list) and through
// packages/client's generated bindings. Both answer {status, headers, body, events}.
import { endpoints, type HttpEndpointId } from '@deckhand/contract';
import { bindEndpoints, readEvents } from '@deckhand/client';
import createClient from 'openapi-fetch';

export type EndpointId = HttpEndpointId;

export interface Call {
  id?: string;
  /** The `{name}` of a file path. */
  name?: string;
  query?: Record<string, string>;
  body?: unknown;
  /** A body sent as it is (a file upload), instead of JSON. */
  raw?: Uint8Array | FormData;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
  /** JSON parsed; any other content (a file) as its bytes. */
  body: any;
  /** Parsed events, when the answer was an event stream. */
  events?: Array<{ data: any; type: string; id: string }>;
  /** The answer's bytes, when it was a file (an image, a PDF) rather than JSON or events. */
  bytes?: Uint8Array;
}

export interface Driver {
  name: 'http' | 'client';
  call(op: EndpointId, call?: Call): Promise<Reply>;
}

const isStream = (response: Response) => (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
const isJson = (response: Response) => /json/.test(response.headers.get('content-type') ?? 'json');

/** A success body that is neither JSON nor events is a file: its bytes. */
async function parsedBody(response: Response, text: () => Promise<string>): Promise<unknown> {
  if (!isJson(response)) return Buffer.from(await response.arrayBuffer());
  const body = await text();
  return body ? JSON.parse(body) : undefined;
}

/** A file's answer carries its bytes both as the body and as `bytes`. */
function withBytes(response: Response, body: unknown) {
  return { status: response.status, headers: response.headers, body, ...(body instanceof Uint8Array ? { bytes: body } : {}) };
}

/** Raw SSE parsing kept independent of the client's reader: blank-line separated `data: ` chunks. */
export function parseEventText(text: string): Reply['events'] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => JSON.parse(chunk.slice(6)));
}

export function httpDriver(baseUrl: string, defaults: Record<string, string> = {}): Driver {
  return {
    name: 'http',
    async call(op, { id, name, query, body, raw, headers } = {}) {
      const route = endpoints[op];
      const path = route.path.replace('{id}', encodeURIComponent(id ?? '')).replace('{name}', encodeURIComponent(name ?? ''));
      const search = query ? `?${new URLSearchParams(query)}` : '';
      const contentType = raw instanceof Uint8Array ? 'application/octet-stream' : body !== undefined ? 'application/json' : undefined;
      const response = await fetch(baseUrl + path + search, {
        method: route.method.toUpperCase(),
        headers: { ...(contentType ? { 'content-type': contentType } : {}), ...defaults, ...headers },
        body: (raw as BodyInit | undefined) ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      if (isStream(response)) {
        const text = await response.text();
        return { status: response.status, headers: response.headers, body: text, events: parseEventText(text) };
      }
      return withBytes(response, await parsedBody(response, () => response.text()));
    },
  };
}

export function clientDriver(baseUrl: string, defaults: Record<string, string> = {}): Driver {
  const ops = bindEndpoints(createClient({ baseUrl, headers: defaults }));
  return {
    name: 'client',
    async call(op, { id, name, query, body, raw, headers } = {}) {
      const init = { headers, parseAs: 'stream' as const };
      const fn = ops[op] as (...args: unknown[]) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const route = endpoints[op];
      const args: unknown[] = route.path.includes('{id}') ? [id] : [];
      if (route.path.includes('{name}')) args.push(name);
      // A binding's declared parameters (init has a default, so it is not counted): path, then query, then body.
      if (fn.length > args.length + (route.method === 'post' ? 1 : 0)) args.push(query ?? {});
      if (route.method === 'post') args.push(raw ?? body);
      const { data, error, response } = await fn(...args, init);
      // openapi-fetch has already read an error body into `error`; a success body is the stream in `data`.
      if (!response.ok) return { status: response.status, headers: response.headers, body: error };
      const stream = data as ReadableStream<Uint8Array>;
      if (isStream(response)) {
        const events: NonNullable<Reply['events']> = [];
        for await (const event of readEvents(stream)) events.push(event as NonNullable<Reply['events']>[number]);
        return { status: response.status, headers: response.headers, body: undefined, events };
      }
      const wrapped = new Response(stream, { headers: response.headers });
      return withBytes(response, await parsedBody(wrapped, () => wrapped.text()));
    },
  };
}

/** The driver this run of the suite uses (vitest project env CONTRACT_DRIVER). */
export function driverFor(baseUrl: string, defaults?: Record<string, string>): Driver {
  return process.env.CONTRACT_DRIVER === 'client' ? clientDriver(baseUrl, defaults) : httpDriver(baseUrl, defaults);
}
