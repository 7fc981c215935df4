// Node adapter: @hono/node-server's request listener on a Node HTTP server, with no request timeout (streams
// and agent runs can be long). WebSocket upgrades are accepted here (ws) and joined to the DevTools channel the decision opens.
import { getRequestListener } from '@hono/node-server';
import { bridgeWebSocket } from '@deckhand/core';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Listen, UpgradeRefusal } from './adapter';
import { answerConnect, answerExpectation, answerMissingHost, answerParserError, answerRequestError, writeRaw } from './parser-errors';

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });

export const listenNode: Listen = ({ fetch, host, port, upgrade }) =>
  new Promise((resolve) => {
    // `hostname`: the URL of an HTTP/1.0 request without a Host; errorHandler: the ones it can make no URL of.
    const serveRequest = getRequestListener(fetch, { hostname: host, errorHandler: answerRequestError });
    // Node's own refusal of an HTTP/1.1 request with no Host is a bare 400: it is let through and refused in our shape.
    const server = createServer({ requireHostHeader: false }, (request, response) => {
      if (!answerMissingHost(request, response)) void serveRequest(request, response);
    });
    server.listen(port, host, () => {
      resolve({ port: (server.address() as AddressInfo).port, close: () => new Promise((done) => server.close(() => done())) });
    });
    server.requestTimeout = 0;
    server.on('clientError', answerParserError);
    server.on('checkExpectation', answerExpectation);
    server.on('connect', answerConnect);
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
  writeRaw(socket, status, { 'content-type': 'application/json', 'x-request-id': requestId, 'content-length': String(Buffer.byteLength(body)), connection: 'close' }, body);
}
