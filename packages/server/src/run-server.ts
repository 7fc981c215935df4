// A server process: start, say where it listens, end every session on SIGTERM or SIGINT. Used by
// `npm start` (main.ts) and `deckhand serve` (cli.ts).
import { startServer } from './index';

export async function runServer(env: Record<string, string | undefined>): Promise<void> {
  // Playwright reads a stack on every API call; tsx turns source maps on, which makes each of those reads
  // map every frame (about 5% of an act's CPU). `--enable-source-maps` (or NODE_OPTIONS) keeps them.
  if (!process.execArgv.includes('--enable-source-maps') && !/--enable-source-maps\b/.test(env.NODE_OPTIONS ?? '')) process.setSourceMapsEnabled(false);
  try {
    const server = await startServer(env);
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
    // Announced only now: whoever reads this line may signal at once (a test or supervisor does), and a
    // signal before the handlers are in place kills the process without ending its sessions.
    process.stdout.write(`Deckhand listening on ${server.url} (docs: ${server.url}/docs)\n`);
  } catch (error) {
    process.stderr.write(`Deckhand failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
