// Bun adapter: Bun.serve, with the idle timeout off (streams and agent runs can be long). A WebSocket
// upgrade is accepted here and relayed message by message to the target through a WebSocket client.
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
    hostname: host,
    port,
    idleTimeout: 0,
  });
  return { port: server.port, close: () => server.stop(true) };
};
