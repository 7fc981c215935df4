// Bun adapter: Bun.serve, with the idle timeout off (streams and agent runs can be long). A WebSocket
// upgrade is accepted here and joined message by message to the DevTools channel the decision opens.
import { CdpRelay, type CdpChannel } from '@deckhand/core';
import type { Listen } from './adapter';

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
    fetch: (request: Request, server: { upgrade(request: Request, options: { data: Upgrade }): boolean }) => Response | Promise<Response> | undefined;
    websocket: {
      open(ws: BunSocket): void;
      message(ws: BunSocket, message: string | Uint8Array): void;
      close(ws: BunSocket): void;
    };
    hostname: string;
    port: number;
    idleTimeout: number;
  }): { port: number; stop(closeActiveConnections?: boolean): Promise<void> };
};

export const listenBun: Listen = async ({ fetch, host, port, upgrade }) => {
  const server = Bun.serve({
    fetch(request, bun) {
      if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return fetch(request);
      const url = new URL(request.url);
      const decision = upgrade(url.pathname + url.search);
      if ('status' in decision) return new Response(decision.body, { status: decision.status, headers: { 'content-type': 'application/json' } });
      return bun.upgrade(request, { data: { open: decision.open } }) ? undefined : new Response(null, { status: 500 });
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
    hostname: host,
    port,
    idleTimeout: 0,
  });
  return { port: server.port, close: () => server.stop(true) };
};
