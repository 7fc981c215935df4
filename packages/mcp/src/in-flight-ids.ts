// The JSON-RPC request ids in flight on one 2025-11-25 MCP session. The SDK's transport maps each id to
// the one HTTP stream waiting for its answer, so a request reusing an id in flight took that mapping
// over and the earlier request's stream waited forever: such a request is refused with a 400 instead.
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** Bodies past this (or of unknown length) are not read here: the transport bounds and refuses them itself. */
const MAX_INSPECTED_BYTES = 4 * 1024 * 1024;

type Message = { id?: unknown; method?: unknown; result?: unknown; error?: unknown; params?: { requestId?: unknown } };

export class InFlightIds {
  readonly #ids = new Set<string>();

  /** Frees an id once its answer is sent (delivered or not), whatever sends it. */
  constructor(transport: WebStandardStreamableHTTPServerTransport) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const answered = message as Message;
      if ('result' in answered || 'error' in answered) this.#ids.delete(keyOf(answered.id));
      return send(message, options);
    };
  }

  /**
   * The 400 for a POST whose requests reuse an id in flight (or repeat one within its batch); else
   * holds their ids and answers them. A body that is not JSON is left to the transport to refuse.
   */
  async admit(request: Request): Promise<{ refusal?: Response; ids: string[] }> {
    if (request.method !== 'POST') return { ids: [] };
    const length = Number(request.headers.get('content-length') ?? NaN);
    if (!(length <= MAX_INSPECTED_BYTES)) return { ids: [] };
    let body: unknown;
    try {
      body = JSON.parse(await request.clone().text());
    } catch {
      return { ids: [] };
    }
    const messages = (Array.isArray(body) ? body : [body]).filter((m): m is Message => typeof m === 'object' && m !== null);
    // A cancelled request gets no answer from the SDK: its id is free for the client to use again.
    for (const m of messages) if (m.method === 'notifications/cancelled') this.#ids.delete(keyOf(m.params?.requestId));
    const requests = messages.filter((m) => typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number'));
    const ids = requests.map((m) => keyOf(m.id));
    const reused = requests.find((_, i) => this.#ids.has(ids[i]!) || ids.indexOf(ids[i]!) !== i);
    if (reused) {
      const message = `Invalid Request: request id ${JSON.stringify(reused.id)} is already in flight on this MCP session; use a new id`;
      return { refusal: Response.json({ jsonrpc: '2.0', id: reused.id, error: { code: -32600, message } }, { status: 400 }), ids: [] };
    }
    for (const id of ids) this.#ids.add(id);
    return { ids };
  }

  /** The transport refused the request before handling it: its ids were never in flight. */
  release(ids: string[]): void {
    for (const id of ids) this.#ids.delete(id);
  }
}

/** 7 and "7" are different JSON-RPC ids. */
function keyOf(id: unknown): string {
  return JSON.stringify(id) ?? '';
}
