// Forwards a client's HTTP request to the node that owns its session, on that node's internal URL: the
// body as it came, the answer (JSON or an event stream) passed back as it arrives, and the client's
// disconnect passed on (the owner cancels the work). Keys and cluster headers of the client never travel.
import { INTERNAL_PREFIX, internalHeaders } from './keys';
import type { ClusterSecret } from './cluster-secret';

/** Client headers that stay here: hop-by-hop ones, the client's credentials (the project travels instead), and any cluster header it sent. */
const DROPPED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'te', 'trailer', 'proxy-authorization', 'authorization', 'x-bb-api-key', ...Object.values(internalHeaders)]);
const DROPPED_BACK = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/** The owner did not answer (refused, reset, unreachable); the caller decides between 410 and 503. */
export class OwnerUnreachable extends Error {}

export async function forwardRequest(request: Request, body: ArrayBuffer | undefined, ownerUrl: string, projectId: string | undefined, secret: ClusterSecret): Promise<Response> {
  const url = new URL(request.url);
  const headers = new Headers();
  request.headers.forEach((value, name) => {
    if (!DROPPED.has(name)) headers.set(name, value);
  });
  for (const [name, value] of Object.entries(secret.headersFor(projectId))) headers.set(name, value);
  let answer: Response;
  try {
    answer = await fetch(`${ownerUrl}${INTERNAL_PREFIX}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body: body && body.byteLength > 0 ? body : request.method === 'POST' ? '' : undefined,
      signal: request.signal,
      redirect: 'manual',
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw new OwnerUnreachable(error instanceof Error ? error.message : String(error));
  }
  const back = new Headers();
  answer.headers.forEach((value, name) => {
    if (!DROPPED_BACK.has(name)) back.append(name, value);
  });
  return new Response(answer.body, { status: answer.status, headers: back });
}
