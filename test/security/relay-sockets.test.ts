// Attack (issue 17, minor): one client opens hundreds of websockets on one cdpUrl, each a DevTools session
// in the browser. A project holds at most DECKHAND_PROJECT_RELAY_SOCKETS of them (cdpUrl and debugUrl
// together); past that an upgrade is a 429 in the one error shape, other projects are untouched, and
// closing a socket frees its place.
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { driverFor } from '../support/drivers';
import { expectOk, START_BODY, useContract } from '../support/contract';

const ctx = useContract({ DECKHAND_API_KEYS: 'key-a:project-a,key-b:project-b', DECKHAND_PROJECT_RELAY_SOCKETS: '3' }, { 'x-bb-api-key': 'key-a' });

/** Opens a websocket and has it answer one command: the socket, or the status and body it was refused with. */
function connect(url: string): Promise<WebSocket | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
    socket.once('open', () => {
      socket.once('message', () => resolve(socket));
      socket.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
    });
  });
}

async function start(api = ctx.api) {
  const reply = await api.call('startSession', { body: START_BODY });
  expectOk(reply);
  return reply.body.data as { sessionId: string; cdpUrl: string; debugUrl: string };
}

describe('relay websockets per project', () => {
  it('refuses a project its fourth DevTools socket with 429, not another project its first, and frees a place on close', async () => {
    const a = await start();
    const sockets = await Promise.all([connect(a.cdpUrl), connect(a.cdpUrl), connect(a.cdpUrl)]);
    for (const socket of sockets) expect(socket).toBeInstanceOf(WebSocket);

    const refused = await connect(a.cdpUrl);
    expect(refused).toMatchObject({ status: 429 });
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ success: false, code: 'rate_limited', message: expect.stringContaining('DECKHAND_PROJECT_RELAY_SOCKETS') });
    // The debugUrl's page socket counts toward the same cap.
    const location = new URL((await fetch(a.debugUrl, { redirect: 'manual' })).headers.get('location')!);
    expect(await connect(`ws://${location.searchParams.get('ws')}`)).toMatchObject({ status: 429 });

    const other = driverFor(ctx.server.url, { 'x-bb-api-key': 'key-b' });
    const b = await start(other);
    const theirs = await connect(b.cdpUrl);
    expect(theirs).toBeInstanceOf(WebSocket);
    (theirs as WebSocket).close();

    (sockets[0] as WebSocket).close();
    await expect.poll(async () => {
      const again = await connect(a.cdpUrl);
      if (again instanceof WebSocket) again.close();
      return again instanceof WebSocket;
    }, { timeout: 5_000 }).toBe(true);

    for (const socket of sockets.slice(1)) (socket as WebSocket).close();
    expectOk(await ctx.api.call('endSession', { id: a.sessionId }));
    expectOk(await other.call('endSession', { id: b.sessionId }));
  });
});
