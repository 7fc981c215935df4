// Server-sent events exactly as Stagehand clients parse them: one `data: <json>` line per event,
// keys in the order data, type, id, and `status` first inside data; `: ping` comments as heartbeat.
import { randomUUID } from 'node:crypto';
import type { LogLine } from '@deckhand/core';

type EventData = { status: 'starting' | 'connected' | 'finished' | 'error' | 'running' } & Record<string, unknown>;

function frame(type: 'system' | 'log', data: EventData): string {
  return `data: ${JSON.stringify({ data, type, id: randomUUID() })}\n\n`;
}

export interface EventSink {
  log(line: LogLine): void;
  finished(fields: Record<string, unknown>): void;
  error(message: string, code: string): void;
}

/**
 * Opens an event stream and runs `work` inside it. `work` gets the sink and a signal that aborts
 * when the client goes away. The stream always ends with exactly one terminal event.
 */
export function eventStream(options: {
  heartbeatMs: number;
  signal: AbortSignal;
  work: (sink: EventSink, signal: AbortSignal) => Promise<void>;
}): Response {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const onClientGone = () => abort.abort(new Error('client disconnected'));
  options.signal.addEventListener('abort', onClientGone, { once: true });
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          closed = true;
        }
      };
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        options.signal.removeEventListener('abort', onClientGone);
        controller.close();
      };
      const sink: EventSink = {
        log: (message) => write(frame('log', { status: 'running', message })),
        finished: (fields) => {
          write(frame('system', { status: 'finished', ...fields }));
          close();
        },
        error: (error, code) => {
          write(frame('system', { status: 'error', error, code }));
          close();
        },
      };
      write(frame('system', { status: 'starting' }));
      write(frame('system', { status: 'connected' }));
      heartbeat = setInterval(() => write(': ping\n\n'), options.heartbeatMs);
      options.work(sink, abort.signal).finally(close);
    },
    cancel() {
      onClientGone();
      clearInterval(heartbeat);
    },
  });

  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
