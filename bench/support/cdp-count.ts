// Counts the CDP commands this process writes to its browsers' pipes (NUL-framed JSON on a socket), by
// method, with their bytes: what an operation costs in round trips, measured where they leave, not
// asked of our code. Only for benches whose server runs in the same process.
import { Socket } from 'node:net';

export interface CdpCount {
  commands: number;
  bytes: number;
  byMethod: Map<string, number>;
}

let counting: CdpCount | undefined;
let installed = false;

/** Wraps the socket write once; afterwards only writes made between start and stop are counted. */
function install(): void {
  if (installed) return;
  installed = true;
  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    if (counting && typeof chunk === 'string' && chunk.endsWith('\0') && chunk.startsWith('{"id":')) {
      counting.commands++;
      counting.bytes += Buffer.byteLength(chunk);
      const method = /"method":"([^"]+)"/.exec(chunk)?.[1] ?? '?';
      counting.byMethod.set(method, (counting.byMethod.get(method) ?? 0) + 1);
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof Socket.prototype.write;
}

/** Counts the commands `run` sends (and whatever else writes to a browser meanwhile: run it alone). */
export async function countCdp(run: () => Promise<unknown>, into: CdpCount): Promise<void> {
  install();
  counting = into;
  try {
    await run();
  } finally {
    counting = undefined;
  }
}

export function emptyCount(): CdpCount {
  return { commands: 0, bytes: 0, byMethod: new Map() };
}

/** A markdown table of the commands per operation, by method, most first. */
export function describeCount(count: CdpCount, operations: number): string {
  const per = (n: number) => (n / operations).toFixed(1);
  const lines = [`| CDP commands per operation (${operations} operations) | count |`, '|---|---:|', `| all | ${per(count.commands)} (${(count.bytes / operations / 1024).toFixed(1)} KB) |`];
  for (const [method, n] of [...count.byMethod].sort((a, b) => b[1] - a[1])) lines.push(`| ${method} | ${per(n)} |`);
  return lines.join('\n');
}
