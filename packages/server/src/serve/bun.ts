// Bun adapter: Bun.serve, with the idle timeout off (streams and agent runs can be long).
import type { Listen } from './listen';

declare const Bun: {
  serve(options: { fetch: (request: Request) => Response | Promise<Response>; hostname: string; port: number; idleTimeout: number }): {
    port: number;
    stop(closeActiveConnections?: boolean): Promise<void>;
  };
};

export const listenBun: Listen = async ({ fetch, host, port }) => {
  const server = Bun.serve({ fetch, hostname: host, port, idleTimeout: 0 });
  return { port: server.port, close: () => server.stop(true) };
};
