// The forward proxy every launched browser sits behind. Each destination (plain HTTP requests, and
// CONNECT for HTTPS and websockets) is checked against the navigation policy by its host name and
// every address it resolves to, then connected to at one of those checked addresses. So frames,
// subresources, redirects, websockets, popups, service workers and DNS rebinding all meet the policy.
// Bodies stream through; connections to origins are kept alive and reused.
import {
  Agent,
  STATUS_CODES,
  createServer,
  request,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestOptions,
  type ServerResponse,
} from 'node:http';
import { isIPv6, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { canonicalHost, type IpAddress } from './ip-address.js';
import { netErrorOf } from './net-error.js';
import { decide, type NavigationPolicy } from './network-policy.js';
import { connectPinned, pinnedLookup } from './pinned-connection.js';
import { resolveHost } from './resolve-host.js';
import { openUpstreamProxy, type ProxySettings, type UpstreamProxy } from './upstream-proxy.js';

export interface PolicyProxy {
  /** http://127.0.0.1:<port>, for Chromium's --proxy-server. */
  readonly url: string;
  /** The address last connected to for host:port: what the browser would report as the remote end without the proxy. */
  remoteAddressOf(host: string, port: number): { ipAddress: string; port: number } | undefined;
  close(): Promise<void>;
}

/** Headers only the proxy sets on its own answers (and strips from origins'), for navigate to read. */
export const BLOCKED_HEADER = 'x-deckhand-blocked';
export const NET_ERROR_HEADER = 'x-deckhand-net-error';

type Route = { blocked: string } | { netError: string } | { direct: IpAddress[] } | { upstream: UpstreamProxy };

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);
const REMOTES_KEPT = 256;

export async function startPolicyProxy(policy: NavigationPolicy, upstreamSettings?: ProxySettings): Promise<PolicyProxy> {
  const upstream = upstreamSettings && (await openUpstreamProxy(upstreamSettings, policy));
  const agent = new Agent({ keepAlive: true });
  const remotes = new Map<string, { ipAddress: string; port: number }>();
  const clients = new Set<Socket>();

  const route = async (host: string): Promise<Route> => {
    const via = upstream && !upstream.bypasses(host) ? upstream : undefined;
    let addresses: IpAddress[] = [];
    try {
      addresses = await resolveHost(host);
    } catch (error) {
      // Through a proxy the name is resolved in the proxy's network; only the name is checked here.
      if (!via) return { netError: netErrorOf(error) };
    }
    const verdict = decide(policy, host, addresses);
    if (!verdict.allowed) return { blocked: verdict.reason };
    return via ? { upstream: via } : { direct: addresses };
  };
  const remember = (host: string, port: number, socket: Socket | null) => {
    if (!socket?.remoteAddress || !socket.remotePort) return;
    const key = `${host}:${port}`;
    remotes.delete(key);
    // Bracketed IPv6, as CDP reports remote addresses.
    const ipAddress = isIPv6(socket.remoteAddress) ? `[${socket.remoteAddress}]` : socket.remoteAddress;
    remotes.set(key, { ipAddress, port: socket.remotePort });
    if (remotes.size > REMOTES_KEPT) remotes.delete(remotes.keys().next().value!);
  };

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    // The browser may give up while the destination is being resolved or connected.
    let outgoing: ClientRequest | undefined;
    res.on('close', () => {
      if (!res.writableFinished) outgoing?.destroy();
    });
    const target = proxyTarget(req.url);
    if (!target) return answer(res, 400, 'This is the browser proxy of a Deckhand session: it forwards proxy requests only.');
    const way = await route(target.host);
    if ('blocked' in way) {
      return answer(res, 403, `Blocked by Deckhand's navigation policy: ${way.blocked}`, { [BLOCKED_HEADER]: way.blocked });
    }
    if ('netError' in way) return failed(res, way.netError);
    const headers = forwardedHeaders(req.headers);
    let options: RequestOptions;
    if ('direct' in way) {
      const path = target.url.pathname + target.url.search;
      options = { host: target.host, port: target.port, path, agent, lookup: pinnedLookup(way.direct) };
    } else if (way.upstream.protocol === 'http') {
      const { host, port, addresses, authorization } = way.upstream;
      if (authorization) headers['proxy-authorization'] = authorization;
      options = { host, port, path: target.url.href, agent, lookup: pinnedLookup(addresses) };
    } else {
      const socket = await way.upstream.tunnel(target.host, target.port).catch((error: unknown) => error as Error);
      if (socket instanceof Error) return failed(res, netErrorOf(socket));
      if (res.destroyed) return void socket.destroy();
      socket.resume();
      options = { path: target.url.pathname + target.url.search, createConnection: () => socket };
    }
    if (res.destroyed) return;
    const sent = (outgoing = request({ ...options, method: req.method, headers }));
    sent.on('response', (incoming) => {
      remember(target.host, target.port, sent.socket);
      res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, answeredHeaders(incoming.headers));
      // pipe, not pipeline: pipeline's per-call abort machinery costs more than the copy itself.
      incoming.on('error', () => res.destroy());
      incoming.pipe(res);
    });
    sent.on('error', (error) => (res.headersSent ? res.destroy() : failed(res, netErrorOf(error))));
    req.pipe(sent);
  };

  const tunnel = async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = proxyTarget(`http://${req.url}/`);
    if (!target || target.url.pathname !== '/') return refuse(client, 400, 'CONNECT needs host:port.');
    const way = await route(target.host);
    if ('blocked' in way) return refuse(client, 403, `Blocked by Deckhand's navigation policy: ${way.blocked}`);
    if ('netError' in way) return refuse(client, 502, `net::${way.netError}`);
    const connecting = 'direct' in way ? connectPinned(target.host, way.direct, target.port) : way.upstream.tunnel(target.host, target.port);
    const remote = await connecting.catch((error: unknown) => error as Error);
    if (remote instanceof Error) return refuse(client, 502, `net::${netErrorOf(remote)}`);
    if (client.destroyed) return void remote.destroy();
    remember(target.host, target.port, remote);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) remote.write(head);
    remote.on('error', () => client.destroy());
    client.on('error', () => remote.destroy());
    client.on('close', () => remote.destroy());
    remote.on('close', () => client.end());
    remote.pipe(client);
    client.pipe(remote);
  };

  const server = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    void tunnel(req, client, head).catch(() => client.destroy());
  });
  server.on('upgrade', (_req: IncomingMessage, client: Duplex) => refuse(client, 400, 'Websockets go through CONNECT.'));
  server.on('connection', (socket: Socket) => {
    socket.setNoDelay(true);
    clients.add(socket);
    socket.on('close', () => clients.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    remoteAddressOf: (host, port) => remotes.get(`${host}:${port}`),
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of clients) socket.destroy();
      agent.destroy();
      await closed;
    },
  };
}

/** The destination of a proxy request: an absolute http URL (or CONNECT's authority, made into one). */
function proxyTarget(raw: string | undefined): { url: URL; host: string; port: number } | undefined {
  if (!raw?.startsWith('http://')) return undefined;
  try {
    const url = new URL(raw);
    const host = canonicalHost(url.hostname);
    return host === undefined ? undefined : { url, host, port: Number(url.port || 80) };
  } catch {
    return undefined;
  }
}

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const dropped = connectionTokens(headers);
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !dropped.has(name)) kept[name] = value;
  }
  return kept;
}

/** An origin's response headers, without hop-by-hop ones and without anything posing as the proxy's own. */
function answeredHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept = forwardedHeaders(headers);
  delete kept[BLOCKED_HEADER];
  delete kept[NET_ERROR_HEADER];
  return kept;
}

function connectionTokens(headers: IncomingHttpHeaders): Set<string> {
  return new Set((headers.connection ?? '').split(',').map((token) => token.trim().toLowerCase()).filter(Boolean));
}

function answer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = `${text}\n`;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

function failed(res: ServerResponse, netError: string): void {
  answer(res, 502, `Deckhand's browser proxy could not reach the destination: net::${netError}`, { [NET_ERROR_HEADER]: netError });
}

/** An answer on a socket that has left HTTP parsing (CONNECT, upgrade); the connection closes after it. */
function refuse(client: Duplex, status: number, text: string): void {
  const body = `${text}\n`;
  client.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
