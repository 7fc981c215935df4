// A loopback stand-in for the model providers we cannot reach: it speaks their real wire formats
// (OpenAI Chat Completions and Responses, Anthropic Messages, Google generateContent incl. the Vertex
// URL shape, Azure deployment URLs, Bedrock Converse, the Google OAuth token exchange), answers with
// scripted replies and records every request so tests can assert on exactly what a provider saw.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Protocol = 'openai-chat' | 'openai-responses' | 'anthropic' | 'google' | 'bedrock' | 'oauth' | 'unknown';

export interface RecordedRequest {
  protocol: Protocol;
  method: string;
  /** Path including the query string. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON, or the fields of a form body, or the raw text. */
  body: unknown;
  /** The raw body, for "this string never appears anywhere" assertions. */
  raw: string;
  /** Set when the client dropped the connection before an answer was sent (a cancelled call). */
  abandoned: boolean;
}

export interface ScriptedUsage {
  input?: number;
  output?: number;
  cached?: number;
  reasoning?: number;
}

export type ScriptedReply =
  /** Plain assistant text (use it for malformed output too). */
  | { text: string; usage?: ScriptedUsage }
  /** A JSON value: sent as text, or as the call of the request's forced "json" tool when it has one. */
  | { json: unknown; usage?: ScriptedUsage }
  | { toolCalls: Array<{ name: string; args: unknown }>; usage?: ScriptedUsage }
  /**
   * Computer-use calls, each in the provider's own words: for OpenAI Responses a computer_call's
   * `action` (optionally with `pending_safety_checks`), for Anthropic the computer tool's input
   * ({action: 'left_click', coordinate: [x, y]}), for Google a function call of the computer-use tool
   * ({name: 'click_at', args: {x, y}}). Text may come with them.
   */
  | { computer: Array<Record<string, unknown>>; text?: string; usage?: ScriptedUsage }
  /** An HTTP error in the protocol's own error shape. */
  | { status: number; message?: string }
  /** Never answer; the request stays open until the client gives up or the server closes. */
  | { hang: true };

export interface ModelServer {
  url: string;
  requests: RecordedRequest[];
  /** Queue replies; each model request consumes one (token requests are answered automatically). */
  script(reply: ScriptedReply | ScriptedReply[]): void;
  /** Shorthand for scripting one reply that never comes. */
  hang(): void;
  close(): Promise<void>;
}

/** The access token the OAuth endpoint hands out, so tests can expect it as a bearer. */
export const LOOPBACK_ACCESS_TOKEN = 'ya29.loopback-access-token';

const CREATED_AT = 1_750_000_000;

export async function startModelServer(): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  let counter = 0;

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = req.url ?? '/';
    const protocol = protocolOf(req.method ?? 'GET', path);
    const recorded: RecordedRequest = {
      protocol,
      method: req.method ?? 'GET',
      path,
      headers: flattenHeaders(req),
      body: parseBody(raw, req.headers['content-type']),
      raw,
      abandoned: false,
    };
    requests.push(recorded);
    res.on('close', () => {
      if (!res.writableFinished) recorded.abandoned = true;
    });

    if (protocol === 'oauth') {
      return sendJson(res, 200, { access_token: LOOPBACK_ACCESS_TOKEN, expires_in: 3600, token_type: 'Bearer' });
    }
    if (protocol === 'unknown') {
      return sendJson(res, 404, { error: { message: `model-server: no route for ${recorded.method} ${path}` } });
    }
    const reply = queue.shift();
    if (!reply) {
      // 418 is not retried by the SDKs, so a missing script fails fast and visibly.
      return sendError(res, protocol, 418, 'model-server: no reply scripted for this request');
    }
    if ('hang' in reply) return;
    if ('status' in reply) return sendError(res, protocol, reply.status, reply.message ?? `scripted error ${reply.status}`);
    counter += 1;
    const body = recorded.body as Record<string, unknown>;
    const turn = toTurn(reply, body, raw.length);
    if (protocol === 'openai-chat' && body.stream === true) return streamChat(res, turn, counter, body);
    return sendJson(res, 200, RENDER[protocol](turn, counter, body, path));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(reply) {
      queue.push(...(Array.isArray(reply) ? reply : [reply]));
    },
    hang() {
      queue.push({ hang: true });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

/** One assistant turn, protocol-neutral: text and/or tool calls plus usage. */
interface Turn {
  text?: string;
  toolCalls: Array<{ name: string; args: unknown }>;
  computer: Array<Record<string, unknown>>;
  usage: Required<ScriptedUsage>;
}

function toTurn(reply: Exclude<ScriptedReply, { hang: true } | { status: number }>, body: Record<string, unknown>, promptChars: number): Turn {
  let text: string | undefined;
  let toolCalls: Turn['toolCalls'] = [];
  let computer: Turn['computer'] = [];
  if ('computer' in reply) {
    computer = reply.computer;
    text = reply.text;
  } else if ('text' in reply) text = reply.text;
  else if ('toolCalls' in reply) toolCalls = reply.toolCalls;
  else if (forcesJsonTool(body)) toolCalls = [{ name: 'json', args: reply.json }];
  else text = JSON.stringify(reply.json);
  const outChars = (text ?? JSON.stringify(computer.length > 0 ? computer : toolCalls)).length;
  // Roughly four characters a token, like real tokenizers on English and JSON.
  const usage = { input: Math.ceil(promptChars / 4), output: Math.ceil(outChars / 4), cached: 0, reasoning: 0, ...reply.usage };
  return { text, toolCalls, computer, usage };
}

/** Anthropic and Bedrock carry structured output as a forced tool named "json" on older models. */
function forcesJsonTool(body: Record<string, unknown>): boolean {
  const tools = (body.tools ?? (body.toolConfig as { tools?: unknown[] } | undefined)?.tools) as unknown[] | undefined;
  return (tools ?? []).some((t) => {
    const tool = t as { name?: string; toolSpec?: { name?: string } };
    return tool.name === 'json' || tool.toolSpec?.name === 'json';
  });
}

type Renderer = (turn: Turn, n: number, body: Record<string, unknown>, path: string) => unknown;

const RENDER: Record<Exclude<Protocol, 'oauth' | 'unknown'>, Renderer> = {
  'openai-chat': (turn, n, body) => ({
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: CREATED_AT,
    model: body.model ?? 'deployment',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          ...(turn.toolCalls.length > 0 && {
            tool_calls: turn.toolCalls.map((c, i) => ({
              id: `call_${n}_${i}`,
              type: 'function',
              function: { name: c.name, arguments: JSON.stringify(c.args) },
            })),
          }),
        },
        finish_reason: turn.toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: chatUsage(turn),
  }),
  'openai-responses': (turn, n, body) => ({
    id: `resp_${n}`,
    object: 'response',
    // The AI SDK's Responses parser rejects a response without created_at.
    created_at: CREATED_AT,
    status: 'completed',
    model: body.model ?? 'deployment',
    output: [
      ...(turn.text !== undefined
        ? [
            {
              type: 'message',
              id: `msg_${n}`,
              status: 'completed',
              role: 'assistant',
              content: [{ type: 'output_text', text: turn.text, annotations: [] }],
            },
          ]
        : []),
      // A computer-use model reasons before each call; its reasoning item must go back with the call.
      ...(turn.computer.length > 0 ? [{ type: 'reasoning', id: `rs_${n}`, summary: [] }] : []),
      ...turn.computer.map(({ pending_safety_checks, ...action }, i) => ({
        type: 'computer_call',
        id: `cu_${n}_${i}`,
        call_id: `call_cu_${n}_${i}`,
        action,
        pending_safety_checks: pending_safety_checks ?? [],
        status: 'completed',
      })),
      ...turn.toolCalls.map((c, i) => ({
        type: 'function_call',
        id: `fc_${n}_${i}`,
        call_id: `call_${n}_${i}`,
        name: c.name,
        arguments: JSON.stringify(c.args),
        status: 'completed',
      })),
    ],
    usage: {
      input_tokens: turn.usage.input,
      input_tokens_details: { cached_tokens: turn.usage.cached },
      output_tokens: turn.usage.output,
      output_tokens_details: { reasoning_tokens: turn.usage.reasoning },
      total_tokens: turn.usage.input + turn.usage.output,
    },
  }),
  anthropic: (turn, n, body) => ({
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content: [
      ...(turn.text !== undefined ? [{ type: 'text', text: turn.text }] : []),
      ...turn.toolCalls.map((c, i) => ({ type: 'tool_use', id: `toolu_${n}_${i}`, name: c.name, input: c.args })),
      ...turn.computer.map((input, i) => ({ type: 'tool_use', id: `toolu_cu_${n}_${i}`, name: 'computer', input })),
    ],
    stop_reason: turn.toolCalls.length + turn.computer.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: turn.usage.input,
      output_tokens: turn.usage.output,
      cache_read_input_tokens: turn.usage.cached,
      cache_creation_input_tokens: 0,
    },
  }),
  google: (turn, _n, _body, path) => ({
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            ...(turn.text !== undefined ? [{ text: turn.text }] : []),
            ...turn.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.args } })),
            ...turn.computer.map((c) => ({ functionCall: { name: c.name, args: c.args ?? {} } })),
          ],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: turn.usage.input,
      candidatesTokenCount: turn.usage.output,
      cachedContentTokenCount: turn.usage.cached,
      thoughtsTokenCount: turn.usage.reasoning,
      totalTokenCount: turn.usage.input + turn.usage.output + turn.usage.reasoning,
    },
    modelVersion: /models\/([^/:]+):/.exec(path)?.[1],
  }),
  bedrock: (turn, n) => ({
    output: {
      message: {
        role: 'assistant',
        content: [
          ...(turn.text !== undefined ? [{ text: turn.text }] : []),
          ...turn.toolCalls.map((c, i) => ({ toolUse: { toolUseId: `tooluse_${n}_${i}`, name: c.name, input: c.args } })),
        ],
      },
    },
    stopReason: turn.toolCalls.length > 0 ? 'tool_use' : 'end_turn',
    usage: {
      inputTokens: turn.usage.input,
      outputTokens: turn.usage.output,
      totalTokens: turn.usage.input + turn.usage.output,
      cacheReadInputTokens: turn.usage.cached,
    },
    metrics: { latencyMs: 42 },
  }),
};

function chatUsage(turn: Turn) {
  return {
    prompt_tokens: turn.usage.input,
    completion_tokens: turn.usage.output,
    total_tokens: turn.usage.input + turn.usage.output,
    prompt_tokens_details: { cached_tokens: turn.usage.cached },
    completion_tokens_details: { reasoning_tokens: turn.usage.reasoning },
  };
}

function streamChat(res: ServerResponse, turn: Turn, n: number, body: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: CREATED_AT, model: body.model ?? 'deployment' };
  const chunk = (delta: unknown, finish: string | null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const events: unknown[] = [chunk({ role: 'assistant', content: '' }, null)];
  if (turn.text !== undefined) events.push(chunk({ content: turn.text }, null));
  turn.toolCalls.forEach((c, i) =>
    events.push(
      chunk({ tool_calls: [{ index: i, id: `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }] }, null),
    ),
  );
  events.push(chunk({}, turn.toolCalls.length > 0 ? 'tool_calls' : 'stop'));
  events.push({ ...base, choices: [], usage: chatUsage(turn) });
  for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function sendError(res: ServerResponse, protocol: Protocol, status: number, message: string): void {
  switch (protocol) {
    case 'anthropic':
      return sendJson(res, status, { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'api_error', message } });
    case 'google':
      return sendJson(res, status, { error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'INTERNAL' } });
    case 'bedrock':
      return sendJson(res, status, { message });
    default:
      return sendJson(res, status, { error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', code: null } });
  }
}

function protocolOf(method: string, path: string): Protocol {
  const pathname = path.split('?')[0] ?? path;
  if (method !== 'POST') return 'unknown';
  if (pathname.endsWith('/token')) return 'oauth';
  if (pathname.endsWith('/chat/completions')) return 'openai-chat';
  if (pathname.endsWith('/responses')) return 'openai-responses';
  if (pathname.endsWith('/messages')) return 'anthropic';
  if (pathname.endsWith(':generateContent')) return 'google';
  if (pathname.endsWith('/converse')) return 'bedrock';
  return 'unknown';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Where an image can sit in a request, by protocol: a tool result's own image, or a user message's. */
export interface SentImage {
  /** tool: inside a tool/function/computer-call result; user: in a user message. */
  in: 'tool' | 'user';
  mediaType: string;
  /** Base64 of the image. */
  data: string;
}

/**
 * The images a recorded request carries as images (not as text that happens to hold base64), in the
 * wire shape of its protocol: Chat Completions image_url parts, Responses input_image (in a
 * function_call_output or a computer_call_output), Anthropic image blocks (in a tool_result or a user
 * turn), Google inlineData (in a functionResponse's parts or a user turn).
 */
export function imagesIn(request: RecordedRequest): SentImage[] {
  const body = request.body as Record<string, any>;
  const fromDataUrl = (url: string, where: SentImage['in']): SentImage[] => {
    const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
    return match ? [{ in: where, mediaType: match[1]!, data: match[2]! }] : [];
  };
  switch (request.protocol) {
    case 'openai-chat':
      return (body.messages ?? []).flatMap((m: any) =>
        Array.isArray(m.content) ? m.content.filter((p: any) => p.type === 'image_url').flatMap((p: any) => fromDataUrl(p.image_url.url, m.role === 'tool' ? 'tool' : 'user')) : [],
      );
    case 'openai-responses':
      return (body.input ?? []).flatMap((item: any) => {
        if (item.type === 'computer_call_output') return fromDataUrl(item.output?.image_url ?? '', 'tool');
        if (item.type === 'function_call_output' && Array.isArray(item.output)) {
          return item.output.filter((p: any) => p.type === 'input_image').flatMap((p: any) => fromDataUrl(p.image_url, 'tool'));
        }
        if (item.role === 'user' && Array.isArray(item.content)) {
          return item.content.filter((p: any) => p.type === 'input_image').flatMap((p: any) => fromDataUrl(p.image_url, 'user'));
        }
        return [];
      });
    case 'anthropic': {
      const image = (block: any, where: SentImage['in']): SentImage[] =>
        block.type === 'image' && block.source?.type === 'base64' ? [{ in: where, mediaType: block.source.media_type, data: block.source.data }] : [];
      return (body.messages ?? []).flatMap((m: any) =>
        Array.isArray(m.content)
          ? m.content.flatMap((block: any) =>
              block.type === 'tool_result' && Array.isArray(block.content) ? block.content.flatMap((b: any) => image(b, 'tool')) : image(block, 'user'),
            )
          : [],
      );
    }
    case 'google':
      return (body.contents ?? []).flatMap((c: any) =>
        (c.parts ?? []).flatMap((part: any) => {
          if (part.functionResponse) {
            return (part.functionResponse.parts ?? []).filter((p: any) => p.inlineData).map((p: any) => ({ in: 'tool', mediaType: p.inlineData.mimeType, data: p.inlineData.data }));
          }
          return part.inlineData ? [{ in: 'user', mediaType: part.inlineData.mimeType, data: part.inlineData.data }] : [];
        }),
      );
    default:
      return [];
  }
}
