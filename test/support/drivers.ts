// The contract suite runs twice: over raw HTTP (fetch, paths from the generated operation list) and through
// packages/client's generated bindings. Both answer {status, headers, body, events}.
import { endpoints, type HttpEndpointId } from '@deckhand/contract';
import { bindEndpoints, readEvents } from '@deckhand/client';
import createClient from 'openapi-fetch';

export type EndpointId = HttpEndpointId;

export interface Call {
  id?: string;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
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
const isFile = (response: Response) => /^(image\/|application\/pdf)/.test(response.headers.get('content-type') ?? '');

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
    async call(op, { id, body, headers, query } = {}) {
      const route = endpoints[op];
      const url = baseUrl + route.path.replace('{id}', encodeURIComponent(id ?? '')) + (query ? `?${new URLSearchParams(query)}` : '');
      const response = await fetch(url, {
        method: route.method.toUpperCase(),
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...defaults, ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.ok && isFile(response)) return { status: response.status, headers: response.headers, body: undefined, bytes: new Uint8Array(await response.arrayBuffer()) };
      const text = await response.text();
      if (isStream(response)) return { status: response.status, headers: response.headers, body: text, events: parseEventText(text) };
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    },
  };
}

export function clientDriver(baseUrl: string, defaults: Record<string, string> = {}): Driver {
  const ops = bindEndpoints(createClient({ baseUrl, headers: defaults }));
  return {
    name: 'client',
    async call(op, { id, body, headers, query } = {}) {
      const init = { headers, parseAs: 'stream' as const };
      const fn = ops[op] as (...args: unknown[]) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const route = endpoints[op];
      const args: unknown[] = route.path.includes('{id}') ? [id] : [];
      if (query) args.push(query);
      if (route.method === 'post') args.push(body);
      const { data, error, response } = await fn(...args, init);
      // openapi-fetch has already read an error body into `error`; a success body is the stream in `data`.
      if (!response.ok) return { status: response.status, headers: response.headers, body: error };
      const stream = data as ReadableStream<Uint8Array>;
      if (isStream(response)) {
        const events: NonNullable<Reply['events']> = [];
        for await (const event of readEvents(stream)) events.push(event as NonNullable<Reply['events']>[number]);
        return { status: response.status, headers: response.headers, body: undefined, events };
      }
      if (isFile(response)) return { status: response.status, headers: response.headers, body: undefined, bytes: new Uint8Array(await new Response(stream).arrayBuffer()) };
      const text = await new Response(stream).text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    },
  };
}

/** The driver this run of the suite uses (vitest project env CONTRACT_DRIVER). */
export function driverFor(baseUrl: string, defaults?: Record<string, string>): Driver {
  return process.env.CONTRACT_DRIVER === 'client' ? clientDriver(baseUrl, defaults) : httpDriver(baseUrl, defaults);
}
