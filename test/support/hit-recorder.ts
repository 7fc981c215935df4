// A loopback HTTP server that records every connection and request it gets, on every local address
// (it listens on :: so 127.0.0.2, 0.0.0.0, [::1] and [::ffff:127.0.0.2] all reach it). A denied
// destination must leave it untouched. /stream answers a first chunk and holds the rest until released.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HitRecorder {
  port: number;
  /** TCP connections accepted (websocket and tunnel attempts included). */
  connections: number;
  /** Request paths, in arrival order. */
  paths: string[];
  /** Headers of the requests, in arrival order. */
  headers: Array<Record<string, string | string[] | undefined>>;
  /** Ends the responses /stream is holding. */
  releaseStreams(): void;
  close(): Promise<void>;
}

export async function startHitRecorder(): Promise<HitRecorder> {
  const held: Array<() => void> = [];
  const recorder = {
    port: 0,
    connections: 0,
    paths: [] as string[],
    headers: [] as HitRecorder['headers'],
    releaseStreams: () => held.splice(0).forEach((release) => release()),
  };
  const server: Server = createServer((req, res) => {
    recorder.paths.push(req.url ?? '');
    recorder.headers.push(req.headers);
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first;');
      held.push(() => res.end('rest'));
      return;
    }
    const spoof = req.url === '/spoof' ? { 'x-deckhand-blocked': 'spoofed by the origin' } : {};
    res.writeHead(200, { 'content-type': 'text/html', ...spoof });
    res.end(`<p>recorder saw ${req.url}</p>`);
  });
  server.on('connection', () => recorder.connections++);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  recorder.port = (server.address() as AddressInfo).port;
  return Object.assign(recorder, {
    close: () =>
      new Promise<void>((resolve) => {
        recorder.releaseStreams();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
