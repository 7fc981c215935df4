// logInferenceToFile: JSON lines in <dir>/<sessionId>.jsonl, secrets masked. One line per operation
// (its request and its answer) in every mode; where the model is called from this process (env
// LOCAL, useAPI: false) also one line per model request and its answer, as the core's observer saw
// it. In API mode the model runs on the server, so the operations are what the client saw.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelCallRecord } from '@deckhand/core';
import type { Secrets } from './secrets';

export type InferenceRecord =
  | { kind: 'operation'; method: string; request: unknown; answer?: unknown; error?: string; durationMs: number }
  | ({ kind: 'modelCall' } & ModelCallRecord);

export class InferenceLog {
  /** Lines are appended one after the other, in the order they were written. */
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly secrets: Secrets,
  ) {}

  write(sessionId: string, record: InferenceRecord): Promise<void> {
    const line = JSON.stringify(this.secrets.maskValue({ timestamp: new Date().toISOString(), sessionId, ...record }));
    const written = this.last.then(async () => {
      await mkdir(this.dir, { recursive: true });
      await appendFile(join(this.dir, `${encodeURIComponent(sessionId)}.jsonl`), `${line}\n`);
    });
    this.last = written.catch(() => undefined);
    return written;
  }
}
