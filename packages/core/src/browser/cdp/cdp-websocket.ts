// CDP channels over websockets: the bridge used by the server's relay, and the private endpoint
// Playwright connects through (a unix socket in a directory only this user can enter, since
// connectOverCDP speaks only websockets and Chromium itself listens on nothing).
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import type { CdpChannel } from './cdp-mux.js';
import { makeTempDir } from '../chromium/temp-dirs.js';

/** A client's socket, as the relay needs it. */
export interface RelaySocket {
  send(message: string): void;
  close(): void;
}

/**
 * Joins a client socket to a CDP channel that may still be opening: what the client sends before the
 * channel is ready is held, and either side closing closes the other.
 */
export class CdpRelay {
  #channel?: CdpChannel;
  #early: string[] = [];
  #clientClosed = false;

  constructor(channel: Promise<CdpChannel>, socket: RelaySocket) {
    channel.then(
      (ready) => {
        if (this.#clientClosed) return ready.close();
        this.#channel = ready;
        ready.onMessage((message) => socket.send(message));
        ready.onClose(() => socket.close());
        for (const message of this.#early.splice(0)) ready.send(message);
      },
      () => socket.close(),
    );
  }

  fromClient(message: string): void {
    if (this.#channel) this.#channel.send(message);
    else this.#early.push(message);
  }

  clientClosed(): void {
    this.#clientClosed = true;
    this.#channel?.close();
  }
}

/** Relays a `ws` websocket (Node) to a CDP channel. */
export function bridgeWebSocket(socket: WebSocket, channel: Promise<CdpChannel>): void {
  const relay = new CdpRelay(channel, { send: (message) => socket.send(message), close: () => socket.close() });
  socket.on('message', (data: Buffer) => relay.fromClient(data.toString('utf8')));
  socket.on('close', () => relay.clientClosed());
  socket.on('error', () => relay.clientClosed());
}

export interface PrivateCdpEndpoint {
  /** `ws+unix:` URL for connectOverCDP. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves channels from `open` on a fresh unix socket under a 0700 temp directory, at an unguessable path. */
export async function servePrivateCdp(open: () => Promise<CdpChannel>): Promise<PrivateCdpEndpoint> {
  const dir = await makeTempDir('cdp');
  const socketPath = join(dir, 's');
  const path = `/devtools/browser/${randomUUID()}`;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    if (req.url !== path) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => bridgeWebSocket(ws, open()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    url: `ws+unix://${socketPath}:${path}`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A CDP channel to a browser someone else runs, over its own DevTools websocket. */
export function connectCdpWebSocket(url: string): Promise<CdpChannel> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        send: (message) => socket.send(message),
        onMessage: (listener) => socket.on('message', (data: Buffer) => listener(data.toString('utf8'))),
        onClose: (listener) => (socket.readyState === WebSocket.CLOSED ? listener() : socket.once('close', listener)),
        close: () => socket.close(),
      }),
    );
  });
}
