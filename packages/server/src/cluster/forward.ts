// Forwards a client's HTTP request to the node that owns its session, on that node's internal URL: the
// body as it came, the answer passed back (a JSON one whole, an event stream as it arrives), and the
// client's disconnect passed on (the owner cancels the work). Only the client headers the owner reads travel:
// keys, cluster headers and anything else the client sent stay here.
// A forward has a deadline for the owner to take the request: its HTTP server answers `100 Continue` as it
// reads the request's head (Node and Bun do so by themselves), so a paused or hung owner is told from a long operation.
// The MCP paths (a tool call sent to a session's node, an MCP session's request sent to its node) use the same sending.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import type { DeckhandError } from '@deckhand/core';
import { INTERNAL_PREFIX } from './keys';
import type { ClusterSecret } from './cluster-secret';
import { clusterUnavailable } from './redis';

/**
 * The client headers that travel on an HTTP forward: the ones the owner reads (the body's type, what the client
 * accepts, and the API's header parameters in openapi.yaml).
 */
const FORWARDED = new Set(['content-type', 'accept', 'x-stream-response', 'x-language', 'x-sdk-version', 'x-bb-session-id', 'x-model-api-key', 'browserbase-cache-bypass']);
const DROPPED_BACK = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/**
 * The client's headers named in `read` (the ones the node it goes to reads), as they came. The rest stays here, so a
 * request passed on is answered as the same request sent to that node directly: the client's head passed this
 * node's parser, and the other node's parser, with the few headers this node adds, never sees a larger one (16 KB
 * of padding got 431) nor more headers than Node keeps (of 1,000 it dropped those past its count, the Host this
 * node sends last among them: a bare 400).
 */
export function headersRead(request: Request, read: ReadonlySet<string>): Record<string, string> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (read.has(name)) headers[name] = value;
  });
  return headers;
}

/** Answers up to this size with a known length are read whole before they are passed on (JSON answers, small pictures). */
const BUFFERED_MAX_BYTES = 1024 * 1024;

/** The owner did not answer (refused, reset, unreachable, or silent past the deadline); the caller decides between 410 and 503. */
export class OwnerUnreachable extends Error {
  /** `silentMs`: set when the owner was reached but did not take the request within the deadline. */
  constructor(message: string, readonly silentMs?: number) {
    super(message);
  }
}

/** Connections to the other nodes are kept open between requests: a forward costs no handshake. */
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 512 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 512 }) };

interface Owner {
  options: ReturnType<typeof urlToHttpOptions>;
  send: typeof httpRequest;
  agent: HttpAgent;
}
/** Each node's URL parsed once (a node's URL does not change while it lives; the set of nodes is small). */
const owners = new Map<string, Owner>();
function ownerAt(url: string): Owner {
  let owner = owners.get(url);
  if (!owner) {
    const parsed = new URL(url);
    const secure = parsed.protocol === 'https:';
    owner = { options: urlToHttpOptions(parsed), send: secure ? httpsRequest : httpRequest, agent: secure ? agents.https : agents.http };
    if (owners.size > 1_000) owners.clear();
    owners.set(url, owner);
  }
  return owner;
}

/** `deadlineMs`: how long the owner may take to show it has the request (connect, then its first byte: `100 Continue`). */
export function forwardRequest(request: Request, body: Uint8Array | undefined, ownerUrl: string, projectId: string | undefined, secret: ClusterSecret, deadlineMs: number): Promise<Response> {
  // The request's URL is absolute and already normalized: its path and query start at the first slash after the origin.
  const path = `${INTERNAL_PREFIX}${request.url.slice(request.url.indexOf('/', request.url.indexOf('//') + 2))}`;
  const headers = { ...headersRead(request, FORWARDED), ...secret.headersFor(projectId) };
  return sendToNode(ownerUrl, { path, method: request.method, headers, body, signal: request.signal }, deadlineMs);
}

/** One request to another node, as the caller built it (its path on that node, its headers), and what the node answers. */
export interface NodeRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** The caller's: aborted, the request is given up (and nothing more of it is sent). */
  signal?: AbortSignal;
}

/**
 * Sends a request to another node under the forward deadline (`deadlineMs`: see forwardRequest); the
 * rejection is an OwnerUnreachable, or the signal's own when the caller gave up. Every request one node
 * makes of another for a client goes through here (HTTP forwards, MCP requests and tool calls).
 */
export function sendToNode(nodeUrl: string, { path, method, headers: given, body, signal }: NodeRequest, deadlineMs: number): Promise<Response> {
  const owner = ownerAt(nodeUrl);
  const headers = { ...given };
  // The owner's server acknowledges the head at once (`100 Continue`), and only then does the body go: a
  // request given up on before that never reaches the owner whole, so an owner that was paused and wakes
  // up with it in its socket cannot run it (one round trip more per forwarded body).
  headers.expect = '100-continue';
  const payload = body && body.byteLength > 0 ? body : undefined;
  if (payload || method === 'POST') headers['content-length'] = String(payload?.length ?? 0);
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(signal?.aborted || error instanceof OwnerUnreachable ? error : new OwnerUnreachable(error.message));
    const deadline = setTimeout(() => outgoing.destroy(new OwnerUnreachable(`no answer within ${deadlineMs} ms`, deadlineMs)), deadlineMs);
    const heard = () => clearTimeout(deadline);
    const outgoing = owner.send({ ...owner.options, path, method, headers, agent: owner.agent, ...(signal && { signal }) }, (answer) => {
      heard();
      send(); // An answer without 100 Continue (a refusal) leaves the body unread; it still ends the request.
      const back = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || DROPPED_BACK.has(name)) continue;
        for (const one of [value].flat()) back.append(name, one);
      }
      const status = answer.statusCode ?? 502;
      const bodyless = status === 204 || status === 304 || method === 'HEAD';
      if (bodyless) {
        answer.resume();
        return resolve(new Response(null, { status, headers: back }));
      }
      const length = Number(answer.headers['content-length'] ?? NaN);
      // An event stream (or any answer of unknown length) passes through as it comes.
      if (!(length <= BUFFERED_MAX_BYTES)) return resolve(new Response(Readable.toWeb(answer) as ReadableStream<Uint8Array>, { status, headers: back }));
      // A JSON answer is read whole and sent on in one write: the client then gets it with its length, in
      // one packet, rather than as a chunked stream that ends one write (and one wake-up) later.
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => (answer.complete ? resolve(new Response(Buffer.concat(chunks), { status, headers: back })) : fail(new Error('the answer was cut off'))));
      answer.on('error', fail);
    });
    let sent = false;
    const send = () => {
      if (!sent) outgoing.end(payload);
      sent = true;
    };
    // Once the owner has the request, the work takes what it takes (an act, a stream): the deadline is only for taking it.
    outgoing.once('continue', () => {
      heard();
      send();
    });
    outgoing.on('error', (error) => {
      heard();
      fail(error);
    });
    outgoing.flushHeaders();
  });
}

/** The 503 (retry-after) for a request the node holding `what` did not take: silent past the deadline, or not reachable at all. */
export function ownerUnavailable(what: string, error: OwnerUnreachable): DeckhandError {
  return clusterUnavailable(`the node that holds ${what} did not answer${error.silentMs ? ` within ${error.silentMs / 1000} s` : ''}`);
}
