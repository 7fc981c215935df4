// The policy proxy over real sockets: what it forwards, what it refuses (without ever connecting),
// streaming and keep-alive, and the session's own proxy behind it.
import { once } from 'node:events';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_LOOPBACK_POLICY, parsePolicyRules, type NavigationPolicy } from '../src/network/network-policy.js';
import { startPolicyProxy, type PolicyProxy } from '../src/network/policy-proxy.js';
import { closedPortUrl } from '../../../test/support/closed-port.js';
import { startHitRecorder, type HitRecorder } from '../../../test/support/hit-recorder.js';
import { startRecordingProxy } from '../../../test/support/recording-proxy.js';

const SHARED_ALLOWING_127_0_0_1: NavigationPolicy = {
  localNetworks: 'deny',
  allow: parsePolicyRules('127.0.0.1', 'DECKHAND_NAV_ALLOW'),
  deny: [],
};

let recorder: HitRecorder;
let proxy: PolicyProxy;
const opened: Array<{ close(): unknown }> = [];

beforeAll(async () => {
  recorder = await startHitRecorder();
  proxy = await startPolicyProxy(SHARED_ALLOWING_127_0_0_1);
});
afterAll(async () => {
  await proxy.close();
  for (const server of opened) await server.close();
  await recorder.close();
});

describe('plain HTTP through the proxy', () => {
  it('forwards an allowed request, and answers a denied one 403 without connecting, in every spelling', async () => {
    const ok = await viaProxy(proxy.url, `http://127.0.0.1:${recorder.port}/ok`);
    expect(ok).toMatchObject({ status: 200, body: '<p>recorder saw /ok</p>' });
    const before = recorder.connections;
    for (const host of ['127.0.0.2', '[::ffff:127.0.0.2]', '2130706434', '0x7f.2', '0.0.0.0', '[::1]', 'localhost', '[::]']) {
      const denied = await viaProxy(proxy.url, `http://${host}:${recorder.port}/denied`);
      expect(denied.status, host).toBe(403);
      expect(denied.body).toMatch(/^Blocked by Deckhand's navigation policy: .* is a loopback address/);
      expect(denied.headers['x-deckhand-blocked']).toContain('is a loopback address');
    }
    const metadata = await viaProxy(proxy.url, 'http://169.254.169.254/latest/meta-data/');
    expect(metadata.body).toContain('169.254.169.254 is a link-local or cloud metadata address');
    expect(recorder.connections).toBe(before);
    expect(recorder.paths).not.toContain('/denied');
  });

  it('streams a response before the origin has finished it', async () => {
    const { status, firstChunk, rest } = await new Promise<{ status: number; firstChunk: string; rest: Promise<string> }>((resolve, reject) => {
      const { hostname, port } = new URL(proxy.url);
      const req = request({ host: hostname, port, path: `http://127.0.0.1:${recorder.port}/stream` }, (res) => {
        res.setEncoding('utf8');
        res.once('data', (chunk: string) => {
          let tail = '';
          res.on('data', (more: string) => (tail += more));
          resolve({ status: res.statusCode!, firstChunk: chunk, rest: once(res, 'end').then(() => tail) });
        });
      });
      req.on('error', reject).end();
    });
    expect(status).toBe(200);
    // The origin holds the rest until released: this chunk came through while the response was open.
    expect(firstChunk).toBe('first;');
    recorder.releaseStreams();
    expect(await rest).toBe('rest');
  });

  it('keeps connections alive on both sides', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await viaProxy(proxy.url, `http://127.0.0.1:${recorder.port}/alive-1`, agent);
      const originConnections = recorder.connections;
      const second = await viaProxy(proxy.url, `http://127.0.0.1:${recorder.port}/alive-2`, agent);
      expect([first.status, second.status]).toEqual([200, 200]);
      // The client's connection to the proxy, and the proxy's to the origin, both served the second request.
      expect(second.reusedSocket).toBe(true);
      expect(recorder.connections).toBe(originConnections);
    } finally {
      agent.destroy();
    }
  });

  it('answers an unreachable destination 502 with the net error, a non-proxy request 400, and strips headers posing as its own', async () => {
    const refused = await viaProxy(proxy.url, await closedPortUrl());
    expect(refused.status).toBe(502);
    expect(refused.headers['x-deckhand-net-error']).toBe('ERR_CONNECTION_REFUSED');
    const direct = await viaProxy(proxy.url, '/not-a-proxy-request');
    expect(direct.status).toBe(400);
    const spoof = await viaProxy(proxy.url, `http://127.0.0.1:${recorder.port}/spoof`);
    expect(spoof.status).toBe(200);
    expect(spoof.headers['x-deckhand-blocked']).toBeUndefined();
  });
});

describe('CONNECT through the proxy (HTTPS, websockets)', () => {
  it('tunnels to an allowed destination and refuses a denied one before connecting', async () => {
    const tunnel = await connectVia(proxy.url, `127.0.0.1:${recorder.port}`);
    expect(tunnel.status).toBe(200);
    expect(await requestOver(tunnel.socket, '/tunnelled')).toContain('recorder saw /tunnelled');
    const before = recorder.connections;
    for (const authority of [`127.0.0.2:${recorder.port}`, `[::1]:${recorder.port}`, `[::ffff:7f00:2]:${recorder.port}`, '169.254.169.254:443']) {
      const refused = await connectVia(proxy.url, authority);
      expect(refused.status, authority).toBe(403);
      refused.socket.destroy();
    }
    expect(recorder.connections).toBe(before);
  });
});

describe("the session's own proxy behind it", () => {
  it('sends allowed traffic through an HTTP proxy with its credentials, and denied traffic nowhere', async () => {
    const upstream = await startRecordingProxy();
    opened.push(upstream);
    const behind = await startPolicyProxy(
      { ...OPEN_LOOPBACK_POLICY, deny: parsePolicyRules('127.0.0.2', 'DECKHAND_NAV_DENY') },
      { server: upstream.url, username: 'user', password: 'pa:ss' },
    );
    opened.push(behind);
    const authorization = `Proxy-Authorization: Basic ${Buffer.from('user:pa:ss').toString('base64')}`;
    expect((await viaProxy(behind.url, `http://127.0.0.1:${recorder.port}/upstream-http`)).status).toBe(200);
    expect(upstream.seen()).toContain(`GET http://127.0.0.1:${recorder.port}/upstream-http HTTP/1.1`);
    expect(upstream.seen().toLowerCase()).toContain(authorization.toLowerCase());
    const tunnel = await connectVia(behind.url, `127.0.0.1:${recorder.port}`);
    expect(tunnel.status).toBe(200);
    expect(await requestOver(tunnel.socket, '/upstream-connect')).toContain('recorder saw /upstream-connect');
    expect(upstream.seen()).toMatch(new RegExp(`CONNECT 127\\.0\\.0\\.1:${recorder.port} HTTP/1\\.1\\r\\nHost: [^\\r]+\\r\\n${authorization}`));
    expect((await viaProxy(behind.url, `http://127.0.0.2:${recorder.port}/upstream-denied`)).status).toBe(403);
    expect(upstream.seen()).not.toContain('upstream-denied');
  });

  it('goes direct (still checked) for the bypass list', async () => {
    const upstream = await startRecordingProxy();
    opened.push(upstream);
    const behind = await startPolicyProxy(SHARED_ALLOWING_127_0_0_1, { server: upstream.url, bypass: '127.0.0.*' });
    opened.push(behind);
    expect((await viaProxy(behind.url, `http://127.0.0.1:${recorder.port}/bypassed`)).status).toBe(200);
    expect((await viaProxy(behind.url, `http://127.0.0.2:${recorder.port}/bypassed-denied`)).status).toBe(403);
    expect(upstream.seen()).toBe('');
    expect(recorder.paths).not.toContain('/bypassed-denied');
  });

  it('tunnels through a SOCKS5 proxy, plain HTTP and CONNECT alike', async () => {
    const socks = await startSocks5();
    const behind = await startPolicyProxy(OPEN_LOOPBACK_POLICY, { server: socks.url, username: 'u', password: 'p' });
    opened.push(behind);
    expect(await viaProxy(behind.url, `http://localhost:${recorder.port}/socks-http`)).toMatchObject({ status: 200, body: '<p>recorder saw /socks-http</p>' });
    const tunnel = await connectVia(behind.url, `127.0.0.1:${recorder.port}`);
    expect(await requestOver(tunnel.socket, '/socks-connect')).toContain('recorder saw /socks-connect');
    expect(socks.targets).toEqual([`localhost:${recorder.port}`, `127.0.0.1:${recorder.port}`]);
    expect(socks.credentials).toEqual(['u:p', 'u:p']);
  });

  it('refuses a proxy server the policy denies, or one it cannot speak to', async () => {
    await expect(startPolicyProxy(SHARED_ALLOWING_127_0_0_1, { server: 'http://10.0.0.8:3128' })).rejects.toMatchObject({
      code: 'destination_blocked',
      message: expect.stringContaining('10.0.0.8 is a private address'),
    });
    await expect(startPolicyProxy(OPEN_LOOPBACK_POLICY, { server: 'http://169.254.169.254:80' })).rejects.toMatchObject({ code: 'destination_blocked' });
    await expect(startPolicyProxy(OPEN_LOOPBACK_POLICY, { server: 'socks4://127.0.0.1:1080' })).rejects.toMatchObject({ code: 'validation_error' });
  });
});

interface ProxiedReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
}

function viaProxy(proxyUrl: string, target: string, agent?: Agent): Promise<ProxiedReply> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: body.trim(), reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject).end();
  });
}

/** A CONNECT through the proxy: its status, and the socket (the tunnel when 200). */
async function connectVia(proxyUrl: string, authority: string): Promise<{ status: number; socket: Socket }> {
  const { hostname, port } = new URL(proxyUrl);
  const socket = connect(Number(port), hostname);
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  let head = '';
  while (!head.includes('\r\n\r\n')) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    head += chunk.toString('latin1');
  }
  return { status: Number(head.split(' ')[1]), socket };
}

/** One HTTP/1.0 request over an open tunnel; the whole answer. */
async function requestOver(socket: Socket, path: string): Promise<string> {
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
  socket.write(`GET ${path} HTTP/1.0\r\nHost: recorder\r\n\r\n`);
  await once(socket, 'end');
  return answer;
}

/** A SOCKS5 server (username/password auth, CONNECT) that records the targets and credentials it is asked for. */
async function startSocks5(): Promise<{ url: string; targets: string[]; credentials: string[] }> {
  const targets: string[] = [];
  const credentials: string[] = [];
  const server = createServer(async (client) => {
    client.on('error', () => client.destroy());
    const read = readerOf(client);
    const greeting = await read(2);
    await read(greeting[1]!);
    client.write(Buffer.from([5, 2]));
    const authHead = await read(2);
    const user = (await read(authHead[1]!)).toString();
    const password = (await read((await read(1))[0]!)).toString();
    credentials.push(`${user}:${password}`);
    client.write(Buffer.from([1, 0]));
    const [, , , type] = await read(4);
    const host =
      type === 3 ? (await read((await read(1))[0]!)).toString() : type === 1 ? [...(await read(4))].join('.') : 'ipv6';
    const portBytes = await read(2);
    const port = (portBytes[0]! << 8) | portBytes[1]!;
    targets.push(`${host}:${port}`);
    const upstream = connect(port, host === 'localhost' ? '127.0.0.1' : host, () => {
      client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
      client.pipe(upstream).pipe(client);
    });
    upstream.on('error', () => client.destroy());
  });
  await listen(server);
  opened.push({ close: () => server.close() });
  return { url: `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`, targets, credentials };
}

/** Reads exact byte counts from a socket, in order. */
function readerOf(socket: Socket): (count: number) => Promise<Buffer> {
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  });
  return async (count) => {
    while (buffered.length < count) await new Promise<void>((resolve) => (waiting = resolve));
    const taken = buffered.subarray(0, count);
    buffered = buffered.subarray(count);
    return taken;
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}
