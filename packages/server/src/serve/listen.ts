// The one runtime difference: how to listen (and accept WebSocket upgrades). Everything else is the
// same fetch handler.
import type { CdpChannel } from '@deckhand/core';

/** A WebSocket upgrade is either joined to a DevTools channel or answered with an error body. */
export type UpgradeDecision = { open: () => Promise<CdpChannel> } | { status: number; body: string };

export type Listen = (options: {
  fetch: (request: Request) => Response | Promise<Response>;
  host: string;
  port: number;
  /** Decides what a WebSocket upgrade request (path and query) is joined to. */
  upgrade: (pathAndQuery: string) => UpgradeDecision;
}) => Promise<{ port: number; close: () => Promise<void> }>;

const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

export async function listen(options: Parameters<Listen>[0]) {
  const adapter = isBun ? (await import('./bun')).listenBun : (await import('./node')).listenNode;
  return adapter(options);
}
