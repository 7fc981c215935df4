// Starts a real Deckhand server on a free loopback port, capturing its log lines for assertions.
import { startServer, type RunningServer } from '@deckhand/server';

export interface TestServer extends RunningServer {
  logs: string[];
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const logs: string[] = [];
  const server = await startServer(
    { HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'debug', DECKHAND_CACHE_DIR: '', ...env },
    { writeLog: (line) => logs.push(line) },
  );
  return { ...server, logs };
}
