// Bun adapter: Bun.serve, with the idle timeout off (streams and agent runs can be long). A WebSocket
// upgrade is accepted here and joined message by message to the DevTools channel the decision opens.
// Bun answers some requests itself, before any handler runs, with bare statuses: a header section
// or request line its parser refuses (400, 431), and a body over maxRequestBodySize (413), set to
// the body limit's drain bound so that the app's own 413 answers every body up to it.
import { randomUUID } from 'node:crypto';
import { CdpRelay, DeckhandError, type CdpChannel } from '@deckhand/core';
import { DRAIN_LIMIT_BYTES } from '../body-limit';
import { errorBody, unexpectedMessage } from '../errors';
import { createLogger } from '../logger';
import { reject, type Listen } from './adapter';

interface Upgrade {
  open: () => Promise<CdpChannel>;
  relay?: CdpRelay;
}

interface BunSocket {
  data: Upgrade;
  send(message: string | ArrayBuffer | Uint8Array): void;
  close(): void;
}

declare const Bun: {
  serve(options: {
    fetch: (request: Request, server: { upgrade(request: Request, options: { data: Upgrade }): boolean }) => Response | Promise<Response | undefined> | undefined;
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
    async fetch(request, bun) {
      if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return fetch(request);
      const url = new URL(request.url);
      const decision = await upgrade(url.pathname + url.search, (name) => request.headers.get(name) ?? undefined);
      const refused = 'status' in decision ? decision : bun.upgrade(request, { data: { open: decision.open } }) ? undefined : reject(new DeckhandError('internal_error', 'The WebSocket upgrade failed'));
      if (!refused) return undefined;
      return new Response(refused.body, { status: refused.status, headers: { 'content-type': 'application/json', 'x-request-id': refused.requestId } });
    },
    websocket: {
      open(ws) {
        ws.data.relay = new CdpRelay(ws.data.open(), { send: (message) => ws.send(message), close: () => ws.close() });
      },
      message(ws, message) {
        ws.data.relay?.fromClient(typeof message === 'string' ? message : new TextDecoder().decode(message));
      },
      close(ws) {
        ws.data.relay?.clientClosed();
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
