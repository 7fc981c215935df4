// Node adapter: @hono/node-server, with no request timeout (streams and agent runs can be long).
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { Listen } from './listen';

export const listenNode: Listen = ({ fetch, host, port }) =>
  new Promise((resolve) => {
    const server = serve({ fetch, hostname: host, port }, (info) => {
      resolve({ port: info.port, close: () => new Promise((done) => server.close(() => done())) });
    }) as Server;
    server.requestTimeout = 0;
  });
