// The one runtime difference: how to listen. Everything else is the same fetch handler.
export type Listen = (options: {
  fetch: (request: Request) => Response | Promise<Response>;
  host: string;
  port: number;
}) => Promise<{ port: number; close: () => Promise<void> }>;

export const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

export async function listen(options: Parameters<Listen>[0]) {
  const adapter = isBun ? (await import('./bun')).listenBun : (await import('./node')).listenNode;
  return adapter(options);
}
