// The `deckhand` command: `deckhand serve [--port N] [--host H]`. Flags win over HOST and PORT; the
// rest of the configuration comes from the environment, listed by `deckhand serve --help`.
import { Command, InvalidArgumentError } from 'commander';
import { ENVIRONMENT_HELP } from './environment-help';
import { runServer } from './run-server';

function parsePort(value: string): string {
  if (!/^\d+$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one)');
  return String(Number(value));
}

const program = new Command('deckhand').description('Deckhand, a browser-automation service over HTTP.');
program
  .command('serve')
  .description('Serve the HTTP API (with /docs, /metrics, /mcp) until SIGTERM or SIGINT, which end every session.')
  .option('--port <port>', 'port to listen on, 0 for a free one (default: PORT, else 3000)', parsePort)
  .option('--host <host>', 'address to bind (default: HOST, else 127.0.0.1); any other than loopback needs DECKHAND_API_KEYS')
  .addHelpText('after', `\n${ENVIRONMENT_HELP}`)
  .action(async (flags: { port?: string; host?: string }) => {
    await runServer({ ...process.env, ...(flags.port !== undefined && { PORT: flags.port }), ...(flags.host !== undefined && { HOST: flags.host }) });
  });

await program.parseAsync(process.argv);
