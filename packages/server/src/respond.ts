// Runs one session operation and answers as JSON or as an event stream, with the same result shape.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { LogLine, OpContext } from '@deckhand/core';
import type { StreamingEndpointId } from '@deckhand/contract';
import type { AppEnv } from './env';
import { asDeckhandError, logKnown, unexpectedMessage } from './errors';
import type { ResultOf } from './route';
import { eventStream } from './sse';

/** A boolean `streamResponse` in the body wins over the `x-stream-response` header. */
export function wantsStream(bodyFlag: boolean | undefined, header: string | undefined): boolean {
  return bodyFlag ?? header === 'true';
}

export interface Operation<T> {
  stream: boolean;
  run: (ctx: OpContext) => Promise<T>;
  /** Response headers known once the result is (JSON answers only; a stream's headers are already sent). */
  headers?: () => Record<string, string>;
  /** Fields beside `result` known once the result is (agentExecute's cacheEntry), in the JSON data and the finished event. */
  data?: () => Record<string, unknown>;
}

export async function respond<K extends StreamingEndpointId>(c: Context<AppEnv>, heartbeatMs: number, op: Operation<ResultOf<K>>): Promise<Response> {
  const logger = c.get('logger');
  const requestId = c.get('requestId');
  const debugLog = (line: LogLine) => logger.debug(line.message, { requestId, category: line.category });

  if (!op.stream) {
    const result = await op.run({ signal: c.req.raw.signal, log: debugLog });
    for (const [name, value] of Object.entries(op.headers?.() ?? {})) c.header(name, value);
    return c.json({ success: true, data: { result, ...op.data?.(), actionId: randomUUID() } });
  }

  return eventStream({
    heartbeatMs,
    signal: c.req.raw.signal,
    work: async (sink, signal) => {
      try {
        const result = await op.run({
          signal,
          log: (line) => {
            debugLog(line);
            sink.log(line);
          },
        });
        sink.finished({ result, ...op.data?.(), actionId: randomUUID() });
      } catch (error) {
        const known = asDeckhandError(error);
        if (known) {
          logKnown(logger, requestId, known);
          sink.error(known.message, known.code);
        }
        else sink.error(unexpectedMessage(logger, requestId, error, 'unexpected error in stream'), 'internal_error');
      }
    },
  });
}
