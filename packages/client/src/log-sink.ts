// Where the client's log lines go: lines above `verbose` are dropped (0 errors only, 1 info, 2 debug),
// secrets are masked, then the line goes to the caller's `logger` or to stderr.
import type { LogLine } from '@deckhand/contract';
import type { Secrets } from './secrets';

export type LogSink = (line: LogLine) => void;

export function createLogSink(verbose: 0 | 1 | 2, logger: ((line: LogLine) => void) | undefined, secrets: Secrets): LogSink {
  return (line) => {
    if ((line.level ?? 1) > verbose) return;
    const masked = secrets.maskValue({ timestamp: new Date().toISOString(), ...line });
    if (logger) logger(masked);
    else process.stderr.write(`[deckhand${masked.category ? `:${masked.category}` : ''}] ${masked.message}\n`);
  };
}
