// Node adapter: @hono/node-server, with no request timeout (streams and agent runs can be long).
// WebSocket upgrades are accepted here (ws) and joined to the DevTools channel the decision opens.
import { serve } from '@hono/node-server';
import { bridgeWebSocket } from '@deckhand/core';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Listen, UpgradeRefusal } from './adapter';

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
import { answerExpectation, answerParserError } from './parser-errors';

export const listenNode: Listen = ({ fetch, host, port, upgrade }) =>
  new Promise((resolve) => {
    const server = serve({ fetch, hostname: host, port }, (info) => {
      resolve({ port: info.port, close: () => new Promise((done) => server.close(() => done())) });
    }) as Server;
    server.requestTimeout = 0;
    server.on('clientError', answerParserError);
    server.on('checkExpectation', answerExpectation);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      // Only WebSocket upgrades are served; anything else (h2c, …) is hung up on.
      if (req.headers.upgrade?.toLowerCase() !== 'websocket') return socket.destroy();
      const header = (name: string) => [req.headers[name]].flat()[0];
      void Promise.resolve(upgrade(req.url ?? '/', header)).then((decision) => {
        if (socket.destroyed) return;
        if ('open' in decision) wss.handleUpgrade(req, socket, head, (ws) => bridgeWebSocket(ws, decision.open()));
        else refuse(socket, decision);
      });
    });
  });

function refuse(socket: Duplex, { status, body, requestId }: UpgradeRefusal): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `content-type: application/json\r\nx-request-id: ${requestId}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
