// Time stamps of the CDP messages this process exchanges with its browsers' pipes (commands written,
// replies and events read), to cut an operation into stages where its messages leave and arrive, with
// no timestamps in our code. Both Deckhand's pipe (message and NUL in one write) and Playwright's own
// (two writes) are seen. Only for benches whose server runs in the same process; run one operation at a time.
import { Socket } from 'node:net';

export interface CdpTraceEntry {
  /** performance.now() when the message was written or read. */
  at: number;
  kind: 'command' | 'reply' | 'event';
  method: string;
}

let tracing: { entries: CdpTraceEntry[]; methods: Map<number, string> } | undefined;
let installed = false;
/** Per read socket, the part of a message that has not arrived yet. */
const partial = new WeakMap<Socket, string>();

const idOf = (message: string) => Number(/^\{"id":(\d+)/.exec(message)?.[1] ?? /"id":(\d+)/.exec(message)?.[1]);
const methodOf = (message: string) => /"method":"([^"]+)"/.exec(message)?.[1];

function install(): void {
  if (installed) return;
  installed = true;
  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    if (tracing && typeof chunk === 'string' && chunk.startsWith('{"id":')) {
      const method = methodOf(chunk) ?? '?';
      tracing.methods.set(idOf(chunk), method);
      tracing.entries.push({ at: performance.now(), kind: 'command', method });
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof Socket.prototype.write;
  const emit = Socket.prototype.emit;
  Socket.prototype.emit = function (this: Socket, event: string | symbol, ...args: unknown[]) {
    if (tracing && event === 'data' && Buffer.isBuffer(args[0])) read(this, args[0]);
    return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
  } as typeof Socket.prototype.emit;
}

function read(socket: Socket, chunk: Buffer): void {
  const messages = ((partial.get(socket) ?? '') + chunk.toString('utf8')).split('\0');
  partial.set(socket, messages.pop()!);
  const at = performance.now();
  for (const message of messages) {
    if (!message.startsWith('{')) continue;
    // A reply starts with its id (Chromium writes "id" first); an event has a method and no id of its own.
    const reply = /^\{"id":(\d+)/.exec(message);
    if (reply) tracing!.entries.push({ at, kind: 'reply', method: tracing!.methods.get(Number(reply[1])) ?? '?' });
    else tracing!.entries.push({ at, kind: 'event', method: methodOf(message) ?? '?' });
  }
}

/** Runs `run` and returns the messages exchanged meanwhile (and whatever else talked to a browser: run it alone). */
export async function traceCdp(run: () => Promise<unknown>): Promise<{ start: number; end: number; entries: CdpTraceEntry[] }> {
  install();
  const trace = { entries: [] as CdpTraceEntry[], methods: new Map<number, string>() };
  tracing = trace;
  const start = performance.now();
  try {
    await run();
  } finally {
    tracing = undefined;
  }
  return { start, end: performance.now(), entries: trace.entries };
}
