// Entry point for `npm start` (Node, via tsx) and `bun packages/server/src/main.ts`.
import { startServer } from './index';

try {
  const server = await startServer(process.env);
  process.stdout.write(`Deckhand listening on ${server.url} (docs: ${server.url}/docs)\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: ending every session\n`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
} catch (error) {
  process.stderr.write(`Deckhand failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
