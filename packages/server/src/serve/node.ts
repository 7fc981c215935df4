// Node adapter: @hono/node-server, with no request timeout (streams and agent runs can be long).
// WebSocket upgrades are relayed byte for byte: the handshake is replayed to the target (with its
// own Host, so Chromium's DNS-rebinding check passes) and the two sockets are piped together.
import { serve } from '@hono/node-server';
import type { IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Listen } from './listen';
import { answerParserError } from './parser-errors';

export const listenNode: Listen = ({ fetch, host, port, upgrade }) =>
  new Promise((resolve) => {
    const server = serve({ fetch, hostname: host, port }, (info) => {
      resolve({ port: info.port, close: () => new Promise((done) => server.close(() => done())) });
    }) as Server;
    server.requestTimeout = 0;
    server.on('clientError', answerParserError);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      // Only WebSocket upgrades are served; anything else (h2c, …) is hung up on.
      if (req.headers.upgrade?.toLowerCase() !== 'websocket') return socket.destroy();
      const decision = upgrade(req.url ?? '/');
      if ('target' in decision) relay(req, socket, head, new URL(decision.target));
      else refuse(socket, decision);
    });
  });

/** Headers of the client's handshake that the target needs to answer it. */
const HANDSHAKE = /^(upgrade|connection|sec-websocket-(key|version|extensions|protocol))$/i;

function relay(req: IncomingMessage, client: Duplex, head: Buffer, target: URL): void {
  const upstream = connect(Number(target.port || 80), target.hostname.replace(/^\[|\]$/g, ''), () => {
    const lines = [`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (HANDSHAKE.test(req.rawHeaders[i]!)) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    }
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client).pipe(upstream);
  });
  upstream.on('error', () => client.destroy());
  upstream.on('close', () => client.destroy());
  client.on('close', () => upstream.destroy());
}

function refuse(socket: Duplex, { status, body }: { status: number; body: string }): void {
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Error'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
