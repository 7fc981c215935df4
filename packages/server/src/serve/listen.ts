// The one runtime difference: how to listen (and relay WebSocket upgrades). Everything else is the
// same fetch handler.

/** A WebSocket upgrade either goes to a target websocket URL or is answered with an error body. */
export type UpgradeDecision = { target: string } | { status: number; body: string };

export type Listen = (options: {
  fetch: (request: Request) => Response | Promise<Response>;
  host: string;
  port: number;
  /** Decides where a WebSocket upgrade request (path and query) is relayed. */
  upgrade: (pathAndQuery: string) => UpgradeDecision;
}) => Promise<{ port: number; close: () => Promise<void> }>;

const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

export async function listen(options: Parameters<Listen>[0]) {
  const adapter = isBun ? (await import('./bun')).listenBun : (await import('./node')).listenNode;
  return adapter(options);
}
