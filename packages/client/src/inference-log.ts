// logInferenceToFile: one JSON line per operation (its request and its answer, secrets masked) in
// <dir>/<sessionId>.jsonl. In API mode the model runs on the server, so this is what the client saw.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Secrets } from './secrets';

export interface InferenceRecord {
  method: string;
  request: unknown;
  answer?: unknown;
  error?: string;
  durationMs: number;
}

export class InferenceLog {
  constructor(
    private readonly dir: string,
    private readonly secrets: Secrets,
  ) {}

  async write(sessionId: string, record: InferenceRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const line = JSON.stringify(this.secrets.maskValue({ timestamp: new Date().toISOString(), sessionId, ...record }));
    await appendFile(join(this.dir, `${encodeURIComponent(sessionId)}.jsonl`), `${line}\n`);
  }
}
