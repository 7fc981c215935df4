// The answer to an /mcp request over its project's request rate: HTTP 429 with retry-after, and a
// JSON-RPC error (for the request's id when its body names one) so an MCP client reads it as one.
import type { DeckhandError } from '@deckhand/core';

/** Bodies past this are not read for their id: the refusal names none (JSON-RPC's null id). */
const MAX_INSPECTED_BYTES = 64 * 1024;

/** JSON-RPC's range for server errors; `data.code` carries our error code. */
const SERVER_ERROR = -32000;

export async function rateRefusal(request: Request, refusal: DeckhandError): Promise<Response> {
  const body = { jsonrpc: '2.0', id: await requestId(request), error: { code: SERVER_ERROR, message: refusal.message, data: { code: refusal.code, retryAfterSeconds: refusal.retryAfterSeconds } } };
  const headers = refusal.retryAfterSeconds ? { 'retry-after': String(refusal.retryAfterSeconds) } : undefined;
  return Response.json(body, { status: refusal.status, headers });
}

/** The id of a POST's one JSON-RPC request; null for anything else (a batch, a notification, a GET, a body not JSON). */
async function requestId(request: Request): Promise<string | number | null> {
  if (request.method !== 'POST') return null;
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (!(length <= MAX_INSPECTED_BYTES)) return null;
  try {
    const message = JSON.parse(await request.clone().text()) as { id?: unknown };
    return typeof message?.id === 'string' || typeof message?.id === 'number' ? message.id : null;
  } catch {
    return null;
  }
}
