// A DevTools channel to a session on another node: a websocket to the owner's internal URL (the same
// path and token the client used, with the cluster secret), message for message.
import WebSocket from 'ws';
import { DeckhandError, type CdpChannel } from '@deckhand/core';
import { INTERNAL_PREFIX } from './keys';
import type { ClusterSecret } from './cluster-secret';

/** `deadlineMs`: how long the owner may take to answer the upgrade (a paused owner is an error, not a wait). */
export function openRemoteChannel(ownerUrl: string, pathAndQuery: string, secret: ClusterSecret, deadlineMs: number): Promise<CdpChannel> {
  const url = `${ownerUrl.replace(/^http/, 'ws')}${INTERNAL_PREFIX}${pathAndQuery}`;
  const socket = new WebSocket(url, { headers: secret.headersFor(undefined), perMessageDeflate: false, maxPayload: 256 * 1024 * 1024, handshakeTimeout: deadlineMs });
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk));
      response.on('end', () => reject(refusalFrom(response.statusCode ?? 502, text)));
    });
    socket.once('error', (error) => reject(new DeckhandError('cluster_unavailable', 'The node that owns this session did not answer; retry shortly', undefined, { cause: error, retryAfterSeconds: 2 })));
    socket.once('open', () => {
      const closeListeners: Array<() => void> = [];
      socket.on('close', () => closeListeners.forEach((listener) => listener()));
      socket.on('error', () => socket.terminate());
      resolve({
        send: (message) => socket.send(message),
        onMessage: (listener) => socket.on('message', (data) => listener(data.toString())),
        onClose: (listener) => void closeListeners.push(listener),
        close: () => socket.close(),
      });
    });
  });
}

/** The owner's refusal (its error body), as the same error here. */
export function refusalFrom(status: number, text: string): DeckhandError {
  try {
    const body = JSON.parse(text) as { code?: string; message?: string };
    if (body.code && body.message) return new DeckhandError(body.code as never, body.message);
  } catch {
    // Not our error body: fall through.
  }
  return new DeckhandError('cluster_unavailable', `The node that owns this session refused the connection (HTTP ${status})`, undefined, { retryAfterSeconds: 2 });
}
