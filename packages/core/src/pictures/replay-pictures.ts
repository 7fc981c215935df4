// The replay's picture per operation: a small JPEG of the page as each operation left it, taken after
// the operation has answered (the next operation that may change the page waits until it is taken, not
// until it is written; the answer waits for neither), kept in the project's data directory (so it counts
// toward the project's disk quota) under this process's owner directory (host/process-owner.ts), and bounded
// in size and count.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { within } from '../browser/chromium/launch-chromium.js';
import { confinedDirectory, projectDirName } from '../browser/project-data/project-data-dir.js';
import { PROCESS_OWNER } from '../host/process-owner.js';
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
  /** The pictures being taken (the bytes not yet back from the browser). */
  readonly #taking = new Set<Promise<unknown>>();

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
    const jpeg = within(viewportJpeg(page), PICTURE_TIMEOUT_MS);
    const taking = jpeg.catch(() => undefined).finally(() => this.#taking.delete(taking));
    this.#taking.add(taking);
    this.#writing.set(n, this.#write(jpeg, n));
  }

  /** Every picture started so far shows what it will show (taken, or given up); writing may go on. */
  async taken(): Promise<void> {
    await Promise.all(this.#taking);
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

  async #write(taking: Promise<Buffer>, n: number): Promise<boolean> {
    try {
      const jpeg = await taking;
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
    const made = await confinedDirectory(await this.projectDir(), `replays/${PROCESS_OWNER}/${projectDirName(this.sessionId)}`);
    return 'path' in made ? made.path : undefined;
  }
}

interface LayoutMetrics {
  visualViewport: { scale: number };
  cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  contentSize: { width: number };
  cssContentSize: { width: number };
}

/**
 * The viewport as a JPEG in CSS pixels, as Playwright's `page.screenshot({ scale: 'css' })` takes it, in
 * two commands instead of its five: no script in the page first (it hides nothing for a picture that shows
 * the caret and animations as they are, and its style element counted as a DOM change) and no wait for
 * web fonts (the picture shows the page as it is). The device scale comes from the browser's metrics, not the page.
 */
async function viewportJpeg(page: Page): Promise<Buffer> {
  const { visualViewport, cssVisualViewport: view, contentSize, cssContentSize } = await sendCdp<LayoutMetrics>(page, 'Page.getLayoutMetrics');
  const deviceScale = contentSize.width / cssContentSize.width || 1;
  const clip = { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight, scale: visualViewport.scale / deviceScale };
  const { data } = await sendCdp<{ data: string }>(page, 'Page.captureScreenshot', { format: 'jpeg', quality: PICTURE_QUALITY, clip });
  return Buffer.from(data, 'base64');
}
