// Starts a real Deckhand server on a free loopback port, capturing its log lines for assertions.
import { startServer, type RunningServer } from '@deckhand/server';

export interface TestServer extends RunningServer {
  logs: string[];
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const logs: string[] = [];
  const server = await startServer(
    // Suites open MCP sessions back to back, faster than the default 5 a second a project may; that
    // limit has its own test (test/security/resource-caps.test.ts), which sets it.
    { HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'debug', DECKHAND_CACHE_DIR: '', DECKHAND_MCP_INIT_RATE: '0', ...env },
    { writeLog: (line) => logs.push(line) },
  );
  return { ...server, logs };
}
