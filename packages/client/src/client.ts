// The Deckhand client: generated bindings (openapi-fetch) plus a thin typed wrapper per operation
// that streams by default, reports log lines, and returns the operation's `data`.
import createClient from 'openapi-fetch';
import type { ErrorResponse, LogLine, StreamEvent, components } from '@deckhand/contract';
import { bindEndpoints, type ApiClient, type Endpoints } from './gen/endpoints.gen';
import { DeckhandApiError } from './errors';
import { readEvents } from './sse';

type Schemas = components['schemas'];

export interface DeckhandClientOptions {
  baseUrl: string;
  /** Project-scoped API key (x-bb-api-key). */
  apiKey?: string;
  /** Default model-provider key for sessions (x-model-api-key). */
  modelApiKey?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Stream the operation as server-sent events (default true). */
  stream?: boolean;
  onLog?: (line: LogLine) => void;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type Answer = { data?: unknown; error?: unknown; response: Response };

function failure(response: Response, error: unknown): DeckhandApiError {
  return new DeckhandApiError(response.status, error as ErrorResponse, response.headers.get('x-request-id') ?? undefined);
}

/** The terminal event of a stream, as the `data` a JSON answer would have carried. */
async function finish(body: ReadableStream<Uint8Array> | undefined, onLog?: (line: LogLine) => void): Promise<Record<string, unknown>> {
  if (!body) throw new Error('Stream ended without completion signal');
  for await (const event of readEvents(body)) {
    const data = event.data as StreamEvent['data'] & Record<string, unknown>;
    if (data.status === 'running') onLog?.(data.message as LogLine);
    if (data.status === 'error') {
      throw new DeckhandApiError(200, { success: false, message: String(data.error), code: (data.code ?? 'internal_error') as ErrorResponse['code'] });
    }
    if (data.status === 'finished') {
      const { status: _status, ...rest } = data;
      return rest;
    }
  }
  throw new Error('Stream ended without completion signal');
}

export function createDeckhandClient(options: DeckhandClientOptions) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['x-bb-api-key'] = options.apiKey;
  if (options.modelApiKey) headers['x-model-api-key'] = options.modelApiKey;
  const api: ApiClient = createClient({ baseUrl: options.baseUrl, headers, fetch: options.fetch });
  const ops: Endpoints = bindEndpoints(api);

  async function unwrap<T>(call: Promise<Answer>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw failure(response, error);
    return data as T;
  }

  /** A file answer (an image, a PDF) as bytes. */
  async function file(call: Promise<Answer>): Promise<Buffer> {
    const { data, error, response } = await call;
    if (!response.ok) throw failure(response, error);
    return Buffer.from(await new Response(data as ReadableStream<Uint8Array>).arrayBuffer());
  }

  /** Runs a streamable operation and returns its `data` ({result, actionId, …}). */
  async function operation<T>(run: (init: { headers: Record<string, string>; signal?: AbortSignal; parseAs?: 'stream' }) => Promise<Answer>, call: CallOptions = {}): Promise<T> {
    const stream = call.stream ?? true;
    const { data, error, response } = await run({
      headers: { ...call.headers, 'x-stream-response': String(stream) },
      signal: call.signal,
      parseAs: stream ? 'stream' : undefined,
    });
    if (!response.ok) throw failure(response, error);
    if (!stream) return (data as { data: T }).data;
    return (await finish(data as ReadableStream<Uint8Array>, call.onLog)) as T;
  }

  function session(id: string) {
    return {
      id,
      navigate: (body: Schemas['NavigateRequest'], call?: CallOptions) =>
        operation<Schemas['NavigateResponse']['data']>((init) => ops.navigate(id, body, init), call),
      act: (body: Schemas['ActRequest'], call?: CallOptions) => operation<Schemas['ActResponse']['data']>((init) => ops.act(id, body, init), call),
      observe: (body: Schemas['ObserveRequest'], call?: CallOptions) =>
        operation<Schemas['ObserveResponse']['data']>((init) => ops.observe(id, body, init), call),
      extract: (body: Schemas['ExtractRequest'], call?: CallOptions) =>
        operation<Schemas['ExtractResponse']['data']>((init) => ops.extract(id, body, init), call),
      agentExecute: (body: Schemas['AgentExecuteRequest'], call?: CallOptions) =>
        operation<Schemas['AgentExecuteResultOutput']>((init) => ops.agentExecute(id, body, init), call),
      /** A PNG or JPEG of the page, an element (`selector`) or the whole page (`fullPage`), as bytes. */
      screenshot: (body: Omit<Schemas['ScreenshotRequest'], 'encoding'> = {}, call: Pick<CallOptions, 'signal' | 'headers'> = {}) =>
        file(ops.screenshot(id, body, { ...call, parseAs: 'stream' })),
      /** The page printed to PDF, as bytes. */
      pdf: (body: Omit<Schemas['PdfRequest'], 'encoding'> = {}, call: Pick<CallOptions, 'signal' | 'headers'> = {}) => file(ops.pdf(id, body, { ...call, parseAs: 'stream' })),
      replay: () => unwrap<Schemas['ReplayResponse']>(ops.replaySession(id)).then((r) => r.data),
      listDownloads: () => unwrap<Schemas['FileListResponse']>(ops.listDownloads(id)).then((r) => r.data.files),
      getDownload: async (name: string) => new Uint8Array(await unwrap<ArrayBuffer>(ops.getDownload(id, name, { parseAs: 'arrayBuffer' }))),
      deleteDownload: async (name: string) => void (await unwrap(ops.deleteDownload(id, name))),
      listFiles: () => unwrap<Schemas['FileListResponse']>(ops.listFiles(id)).then((r) => r.data.files),
      uploadFile: (name: string, bytes: Uint8Array) => unwrap<Schemas['FileListResponse']>(ops.uploadFile(id, { name }, bytes)).then((r) => r.data.files[0]!),
      deleteFile: async (name: string) => void (await unwrap(ops.deleteFile(id, name))),
      getCookies: () => unwrap<Schemas['CookiesResponse']>(ops.getCookies(id)).then((r) => r.data.cookies),
      setCookies: (body: Schemas['SetCookiesRequest']) => unwrap<Schemas['CookiesResponse']>(ops.setCookies(id, body)).then((r) => r.data.cookies),
      getStorageState: () => unwrap<Schemas['StorageStateResponse']>(ops.getStorageState(id)).then((r) => r.data),
      setStorageState: (state: Schemas['StorageState']) => unwrap<Schemas['StorageStateResponse']>(ops.setStorageState(id, state)).then((r) => r.data),
      end: () => unwrap<Schemas['EndResponse']>(ops.endSession(id, {})),
    };
  }

  return {
    /** The generated bindings: one typed call per operation, answering `{data, error, response}`. */
    ops,
    async start(body: Schemas['SessionStartRequest']) {
      const started = await unwrap<Schemas['SessionStartResponse']>(ops.startSession(body));
      return { ...started.data, session: session(started.data.sessionId) };
    },
    session,
    /** The project's sessions, newest first, a page at a time (`nextCursor` leads to the next). */
    async listSessions(page: { limit?: number; cursor?: string } = {}) {
      const query = { ...(page.limit !== undefined && { limit: String(page.limit) }), ...(page.cursor && { cursor: page.cursor }) };
      return (await unwrap<Schemas['SessionListResponse']>(ops.listSessions(query))).data;
    },
  };
}

export type DeckhandClient = ReturnType<typeof createDeckhandClient>;
export type DeckhandSession = ReturnType<DeckhandClient['session']>;
