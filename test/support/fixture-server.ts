// Serves test/fixtures (or another directory of pages) on two loopback origins (127.0.0.1 and localhost are different sites, so an
// iframe from the other one is cross-site and runs out of process). HTML files get {{ORIGIN}} and
// {{CROSS_ORIGIN}} filled in. /api/delay?ms=N answers after N ms, for settle tests; /api/redirect?to=URL
// answers a 302 to URL; /api/slow-page?ms=N&page=FILE serves the fixture page FILE after N ms (a slow
// server, for navigations and tabs that load late).
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/**
 * The navigation policy entry a server with API keys needs to let sessions load fixture pages (it
 * denies loopback by default); only the fixture server's two hosts.
 */
export const ALLOW_FIXTURES = { DECKHAND_NAV_ALLOW: '127.0.0.1,localhost' };

export interface FixtureServer {
  origin: string;
  crossOrigin: string;
  url(path: string): string;
  /** Paths (with query) of /api/delay requests whose client hung up before the answer. */
  abandoned: string[];
  close(): Promise<void>;
}

/** `root`: the directory served, test/fixtures unless given (ends with a slash). */
export async function startFixtureServer(root = FIXTURES): Promise<FixtureServer> {
  const origins = { origin: '', crossOrigin: '' };
  const abandoned: string[] = [];
  const main = await listen((req, res) => serve(req, res, root, origins.origin, origins.crossOrigin, abandoned), '127.0.0.1');
  const cross = await listen((req, res) => serve(req, res, root, origins.crossOrigin, origins.origin, abandoned), '127.0.0.1');
  origins.origin = `http://127.0.0.1:${(main.address() as AddressInfo).port}`;
  origins.crossOrigin = `http://localhost:${(cross.address() as AddressInfo).port}`;
  return {
    ...origins,
    url: (path) => new URL(path, `${origins.origin}/`).href,
    abandoned,
    close: async () => {
      await Promise.all([main, cross].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.keepAliveTimeout = 1_000;
    server.on('error', reject);
    server.listen(0, host, () => resolve(server));
  });
}

async function serve(req: IncomingMessage, res: ServerResponse, root: string, self: string, other: string, abandoned: string[]): Promise<void> {
  const url = new URL(req.url ?? '/', self);
  if (url.pathname === '/api/delay') {
    const ms = Math.min(Number(url.searchParams.get('ms') ?? 0), 30_000);
    res.on('close', () => {
      if (!res.writableFinished) abandoned.push(url.pathname + url.search);
    });
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ delayed: ms }));
    }, ms);
    return;
  }
  if (url.pathname === '/api/redirect') {
    res.writeHead(302, { location: url.searchParams.get('to') ?? '/', 'cache-control': 'no-store' });
    res.end();
    return;
  }
  if (url.pathname === '/api/slow-page') {
    const ms = Math.min(Number(url.searchParams.get('ms') ?? 0), 30_000);
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (res.destroyed) return;
    url.pathname = `/${url.searchParams.get('page') ?? 'index.html'}`;
  }
  const relative = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '').replace(/^\/+/, '');
  const file = join(root, relative || 'index.html');
  if (!file.startsWith(root)) return notFound(res);
  try {
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    let body: string | Buffer = await readFile(file);
    if (extname(file) === '.html') {
      body = body.toString('utf8').replaceAll('{{ORIGIN}}', self).replaceAll('{{CROSS_ORIGIN}}', other);
    }
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', 'x-fixture': 'deckhand' });
    res.end(body);
  } catch {
    notFound(res);
  }
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
}
