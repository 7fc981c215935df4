// Forwards a client's HTTP request to the node that owns its session, on that node's internal URL: the
// body as it came, the answer (JSON or an event stream) passed back as it arrives, and the client's
// disconnect passed on (the owner cancels the work). Keys and cluster headers of the client never travel.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { INTERNAL_PREFIX, internalHeaders } from './keys';
import type { ClusterSecret } from './cluster-secret';

/** Client headers that stay here: hop-by-hop ones, the client's credentials (the project travels instead), and any cluster header it sent. */
const DROPPED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'te', 'trailer', 'proxy-authorization', 'authorization', 'x-bb-api-key', ...Object.values(internalHeaders)]);
const DROPPED_BACK = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/** The owner did not answer (refused, reset, unreachable); the caller decides between 410 and 503. */
export class OwnerUnreachable extends Error {}

/** Connections to the other nodes are kept open between requests: a forward costs no handshake. */
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 512 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 512 }) };

export function forwardRequest(request: Request, body: ArrayBuffer | undefined, ownerUrl: string, projectId: string | undefined, secret: ClusterSecret): Promise<Response> {
  const url = new URL(request.url);
  const target = new URL(`${ownerUrl}${INTERNAL_PREFIX}${url.pathname}${url.search}`);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (!DROPPED.has(name)) headers[name] = value;
  });
  Object.assign(headers, secret.headersFor(projectId));
  const payload = body && body.byteLength > 0 ? Buffer.from(body) : undefined;
  if (payload || request.method === 'POST') headers['content-length'] = String(payload?.length ?? 0);
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const outgoing = (secure ? httpsRequest : httpRequest)(target, { method: request.method, headers, agent: secure ? agents.https : agents.http, signal: request.signal }, (answer) => {
      const back = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || DROPPED_BACK.has(name)) continue;
        for (const one of [value].flat()) back.append(name, one);
      }
      const bodyless = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
      if (bodyless) answer.resume();
      resolve(new Response(bodyless ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>), { status: answer.statusCode ?? 502, headers: back }));
    });
    outgoing.on('error', (error) => reject(request.signal.aborted ? error : new OwnerUnreachable(error.message)));
    outgoing.end(payload);
  });
}
