// A session's own proxy (launchOptions.proxy), reached from behind the policy proxy: a destination is
// checked first, then tunnelled through it. Its credentials stay in this process: they are never on
// Chromium's command line, and nothing here logs.
import type { Socket } from 'node:net';
import { DeckhandError } from '../errors.js';
import type { LaunchOptions } from '../types.js';
import { canonicalHost, inCidr, parseCidr, parseIp, type IpAddress } from './ip-address.js';
import { NetError } from './net-error.js';
import { decide, type NavigationPolicy } from './network-policy.js';
import { connectPinned } from './pinned-connection.js';
import { resolveHost } from './resolve-host.js';

export type ProxySettings = NonNullable<LaunchOptions['proxy']>;

export interface UpstreamProxy {
  protocol: 'http' | 'socks5';
  host: string;
  port: number;
  /** Checked against the policy once, and the only addresses ever connected to. */
  addresses: IpAddress[];
  /** `Basic …` for an HTTP proxy with credentials. */
  authorization?: string;
  /** The settings' bypass list: these hosts go direct (and are still checked). */
  bypasses(host: string): boolean;
  /** A connection to host:port through the proxy, ready for the destination's bytes. */
  tunnel(host: string, port: number): Promise<Socket>;
}

const DEFAULT_PORTS = { http: 80, socks5: 1080 } as const;
const MAX_HANDSHAKE_BYTES = 16 * 1024;

/** Checks the proxy's own address against the policy (it must not be a way into the server's network). */
export async function openUpstreamProxy(settings: ProxySettings, policy: NavigationPolicy): Promise<UpstreamProxy> {
  const { protocol, host, port } = parseServer(settings.server);
  let addresses: IpAddress[];
  try {
    addresses = await resolveHost(host);
  } catch {
    // The client named it: an unknown host is their input to fix, not the server's failure.
    throw new DeckhandError('validation_error', `launchOptions.proxy.server: the proxy server ${host} does not resolve`, [
      { path: 'browser.launchOptions.proxy.server', message: `${host} does not resolve` },
    ]);
  }
  const verdict = decide(policy, host, addresses);
  if (!verdict.allowed) {
    throw new DeckhandError('destination_blocked', `The proxy server is blocked by the navigation policy: ${verdict.reason}`);
  }
  const credentials = settings.username === undefined ? undefined : { username: settings.username, password: settings.password ?? '' };
  const bypass = parseBypass(settings.bypass ?? '');
  const upstream: UpstreamProxy = {
    protocol,
    host,
    port,
    addresses,
    authorization: credentials && `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
    bypasses: bypass,
    tunnel: async (targetHost, targetPort) => {
      const socket = await connectPinned(host, addresses, port);
      try {
        if (protocol === 'http') await connectHandshake(socket, targetHost, targetPort, upstream.authorization);
        else await socksHandshake(socket, targetHost, targetPort, credentials);
        return socket;
      } catch (error) {
        socket.destroy();
        throw error;
      }
    },
  };
  return upstream;
}

function parseServer(server: string): { protocol: 'http' | 'socks5'; host: string; port: number } {
  // Playwright's short form host:port means an HTTP proxy.
  const invalid = () =>
    new DeckhandError('validation_error', 'launchOptions.proxy.server must be an http:// or socks5:// proxy URL', [
      { path: 'browser.launchOptions.proxy.server', message: 'use http://host:port or socks5://host:port' },
    ]);
  let url: URL;
  try {
    url = new URL(server.includes('://') ? server : `http://${server}`);
  } catch {
    throw invalid();
  }
  const protocol = url.protocol.slice(0, -1);
  if (protocol !== 'http' && protocol !== 'socks5') throw invalid();
  const host = canonicalHost(url.hostname);
  if (!host) throw invalid();
  return { protocol, host, port: Number(url.port || DEFAULT_PORTS[protocol]) };
}

/** Chromium's bypass rules as Playwright passes them: hosts, `.domain` / `*` globs, IPs and CIDR ranges. */
function parseBypass(text: string): (host: string) => boolean {
  const rules = text
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .map((entry): ((host: string) => boolean) => {
      const cidr = entry.includes('*') ? undefined : parseCidr(entry);
      if (cidr) {
        return (host) => {
          const ip = parseIp(host);
          return ip !== undefined && inCidr(ip, cidr);
        };
      }
      const glob = entry.startsWith('.') ? `*${entry}` : entry;
      const pattern = new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
      return (host) => pattern.test(host);
    });
  return (host) => rules.some((rule) => rule(host));
}

async function connectHandshake(socket: Socket, host: string, port: number, authorization?: string): Promise<void> {
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  socket.write(
    `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${authorization ? `Proxy-Authorization: ${authorization}\r\n` : ''}\r\n`,
  );
  const head = await readHandshake(socket, (data) => {
    const end = data.indexOf('\r\n\r\n');
    return end < 0 ? -1 : end + 4;
  });
  if (!/^HTTP\/1\.[01] 200 /.test(head.toString('latin1'))) throw new NetError('ERR_TUNNEL_CONNECTION_FAILED');
}

/** RFC 1928 CONNECT, with RFC 1929 username/password when credentials are given. */
async function socksHandshake(
  socket: Socket,
  host: string,
  port: number,
  credentials?: { username: string; password: string },
): Promise<void> {
  const failed = new NetError('ERR_SOCKS_CONNECTION_FAILED');
  socket.write(Buffer.from(credentials ? [5, 1, 2] : [5, 1, 0]));
  const [, method] = await readHandshake(socket, (data) => (data.length >= 2 ? 2 : -1));
  if (method === 2 && credentials) {
    const user = Buffer.from(credentials.username);
    const pass = Buffer.from(credentials.password);
    socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
    const [, status] = await readHandshake(socket, (data) => (data.length >= 2 ? 2 : -1));
    if (status !== 0) throw failed;
  } else if (method !== 0) {
    throw failed;
  }
  const ip = parseIp(host);
  const name = Buffer.from(host);
  const address = ip
    ? Buffer.from([ip.family === 4 ? 1 : 4, ...ip.bytes])
    : Buffer.concat([Buffer.from([3, name.length]), name]);
  socket.write(Buffer.concat([Buffer.from([5, 1, 0]), address, Buffer.from([port >> 8, port & 0xff])]));
  const reply = await readHandshake(socket, socksReplyLength);
  if (reply[1] === 5) throw new NetError('ERR_CONNECTION_REFUSED');
  if (reply[1] !== 0) throw failed;
}

/** Length of a SOCKS5 reply once enough of it is here to know, else -1. */
function socksReplyLength(data: Buffer): number {
  if (data.length < 5) return -1;
  const length = data[3] === 1 ? 10 : data[3] === 4 ? 22 : 7 + data[4]!;
  return data.length >= length ? length : -1;
}

/** Reads a handshake message of `lengthOf` bytes; what follows it stays in the socket for the tunnel. */
function readHandshake(socket: Socket, lengthOf: (data: Buffer) => number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const done = () => {
      socket.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const length = lengthOf(data);
      if (length < 0) {
        if (data.length > MAX_HANDSHAKE_BYTES) onError(new NetError('ERR_TUNNEL_CONNECTION_FAILED'));
        return;
      }
      done();
      socket.pause();
      if (length < data.length) socket.unshift(data.subarray(length));
      resolve(data.subarray(0, length));
    };
    const onEnd = () => onError(new NetError('ERR_EMPTY_RESPONSE'));
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    // The previous handshake message left the socket paused.
    socket.on('data', onData).on('end', onEnd).on('error', onError).resume();
  });
}
