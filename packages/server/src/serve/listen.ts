// The one runtime difference: how to listen (and accept WebSocket upgrades). Everything else is the
// same fetch handler. The adapter for the runtime we run on is loaded on demand.
import type { Listen } from './adapter';

const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

export async function listen(options: Parameters<Listen>[0]) {
  const adapter = isBun ? (await import('./bun')).listenBun : (await import('./node')).listenNode;
  return adapter(options);
}
