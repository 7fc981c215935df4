// The replay's picture per operation: a small JPEG of the page as each operation left it, taken after
// the operation has answered (the next operation waits for it, the answer does not), kept in the
// project's data directory (so it counts toward the project's disk quota) and bounded in size and count.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { confinedDirectory, projectDirName } from '../browser/project-data/project-data-dir.js';
import type { ReplayAction } from '../types.js';

/** Small enough to keep hundreds per session, legible enough to follow what happened. */
const PICTURE_QUALITY = 50;
/** A picture larger than this (a huge viewport) is not kept. */
export const REPLAY_PICTURE_MAX_BYTES = 512 * 1024;
/** A frozen page gives up its picture rather than hold up the next operation. */
const PICTURE_TIMEOUT_MS = 2_000;

export class ReplayPictures {
  #taken = 0;
  #dir?: Promise<string | undefined>;
  readonly #writing = new Map<number, Promise<boolean>>();

  constructor(
    private readonly projectDir: () => Promise<string>,
    private readonly sessionId: string,
    private readonly max: number,
  ) {}

  /** Starts the picture of `page` for `record` (which gets its number at once) and returns without waiting for it. */
  capture(page: Page, record: ReplayAction): void {
    if (this.#taken >= this.max || page.isClosed()) return;
    const n = ++this.#taken;
    record.picture = n;
    this.#writing.set(n, this.#take(page, n));
  }

  /** Every picture started so far is written (or given up). */
  async settled(): Promise<void> {
    await Promise.all(this.#writing.values());
  }

  /** Picture `n`, once it is written; undefined when there is none (never taken, too large, or its page froze). */
  async read(n: number): Promise<Buffer | undefined> {
    if (!(await this.#writing.get(n))) return undefined;
    const dir = await this.#dir;
    return dir ? readFile(join(dir, `${n}.jpg`)).catch(() => undefined) : undefined;
  }

  /** Deletes the session's pictures (the server forgot the session). */
  async dispose(): Promise<void> {
    await this.settled();
    this.#writing.clear();
    const dir = await this.#dir;
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  async #take(page: Page, n: number): Promise<boolean> {
    try {
      const jpeg = await page.screenshot({ type: 'jpeg', quality: PICTURE_QUALITY, scale: 'css', timeout: PICTURE_TIMEOUT_MS, animations: 'allow', caret: 'initial' });
      if (jpeg.byteLength > REPLAY_PICTURE_MAX_BYTES) return false;
      const dir = await (this.#dir ??= this.#directory());
      if (!dir) return false;
      await writeFile(join(dir, `${n}.jpg`), jpeg, { mode: 0o600 });
      return true;
    } catch {
      return false;
    }
  }

  async #directory(): Promise<string | undefined> {
    const made = await confinedDirectory(await this.projectDir(), `replays/${projectDirName(this.sessionId)}`);
    return 'path' in made ? made.path : undefined;
  }
}
