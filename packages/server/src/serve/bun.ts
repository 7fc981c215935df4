// Bun adapter: Bun.serve, with the idle timeout off (streams and agent runs can be long). A WebSocket
// upgrade is accepted here and relayed message by message to the target through a WebSocket client.
// Bun answers some requests itself, before any handler runs, with bare statuses: a header section
// or request line its parser refuses (400, 431), and a body over maxRequestBodySize (413), set to
// the body limit's drain bound so that the app's own 413 answers every body up to it.
import { randomUUID } from 'node:crypto';
import { DRAIN_LIMIT_BYTES } from '../body-limit';
import { errorBody, unexpectedMessage } from '../errors';
import { createLogger } from '../logger';
import type { Listen } from './listen';

interface Relay {
  target: string;
  upstream?: WebSocket;
  /** Messages from the client before the upstream connection opened. */
  pending: Array<string | ArrayBuffer | Uint8Array>;
}

interface BunSocket {
  data: Relay;
  send(message: string | ArrayBuffer | Uint8Array): void;
  close(): void;
}

declare const Bun: {
  serve(options: {
    fetch: (request: Request, server: { upgrade(request: Request, options: { data: Relay }): boolean }) => Response | Promise<Response> | undefined;
    websocket: {
      open(ws: BunSocket): void;
      message(ws: BunSocket, message: string | Uint8Array): void;
      close(ws: BunSocket): void;
    };
    /** Called with what fetch threw (the app maps its own errors; this is the net below it). */
    error(error: Error): Response;
    hostname: string;
    port: number;
    idleTimeout: number;
    maxRequestBodySize: number;
  }): { port: number; stop(closeActiveConnections?: boolean): Promise<void> };
};

export const listenBun: Listen = async ({ fetch, host, port, upgrade }) => {
  const server = Bun.serve({
    fetch(request, bun) {
      if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return fetch(request);
      const url = new URL(request.url);
      const decision = upgrade(url.pathname + url.search);
      if ('status' in decision) return new Response(decision.body, { status: decision.status, headers: { 'content-type': 'application/json' } });
      return bun.upgrade(request, { data: { target: decision.target, pending: [] } }) ? undefined : new Response(null, { status: 500 });
    },
    websocket: {
      open(ws) {
        const upstream = new WebSocket(ws.data.target);
        upstream.binaryType = 'arraybuffer';
        ws.data.upstream = upstream;
        upstream.onopen = () => {
          for (const message of ws.data.pending.splice(0)) upstream.send(message);
        };
        upstream.onmessage = (event) => ws.send(event.data as string | ArrayBuffer);
        upstream.onclose = () => ws.close();
        upstream.onerror = () => ws.close();
      },
      message(ws, message) {
        const { upstream, pending } = ws.data;
        if (upstream?.readyState === WebSocket.OPEN) upstream.send(message);
        else pending.push(message);
      },
      close(ws) {
        ws.data.upstream?.close();
      },
    },
    error(error) {
      const requestId = randomUUID();
      const body = errorBody('internal_error', unexpectedMessage(createLogger('error'), requestId, error, 'unexpected error outside the app'));
      return Response.json(body, { status: 500, headers: { 'x-request-id': requestId } });
    },
    hostname: host,
    port,
    idleTimeout: 0,
    maxRequestBodySize: DRAIN_LIMIT_BYTES,
  });
  return { port: server.port, close: () => server.stop(true) };
};
