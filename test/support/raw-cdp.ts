// A raw DevTools client on a cdpUrl (no Playwright in between): commands by method, and every event it was sent.
import { WebSocket } from 'ws';

export interface CdpReply {
  result?: Record<string, unknown> & { targetInfos?: Array<{ targetId: string; url: string; type: string }> };
  error?: { message: string };
}

export interface CdpEvent {
  method: string;
  params: Record<string, any>;
  sessionId?: string;
}

export async function rawCdp(cdpUrl: string) {
  const socket = new WebSocket(cdpUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map<number, (reply: CdpReply) => void>();
  const events: CdpEvent[] = [];
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString());
    if (typeof message.id === 'number') waiting.get(message.id)?.(message);
    else events.push(message);
  });
  return {
    events,
    send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<CdpReply> {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    },
    close: () => socket.close(),
  };
}
