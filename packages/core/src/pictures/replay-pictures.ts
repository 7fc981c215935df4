// The replay's picture per operation: a small JPEG of the page as each operation left it, taken after
// the operation has answered (the next operation that may change the page waits until it is taken, not
// until it is written; the answer waits for neither), kept in the project's data directory (so it counts
// toward the project's disk quota) under this process's owner directory (host/process-owner.ts), and bounded
// in size and count. A read of a page unchanged since the last picture shares it (picture-mark.ts).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { within } from '../browser/chromium/launch-chromium.js';
import { confinedDirectory, projectDirName } from '../browser/project-data/project-data-dir.js';
import { PROCESS_OWNER } from '../host/process-owner.js';
import { pictureMark } from './picture-mark.js';
import type { ReplayAction } from '../types.js';

/** Small enough to keep hundreds per session, legible enough to follow what happened. */
const PICTURE_QUALITY = 50;
/** A picture larger than this (a huge viewport) is not kept. */
export const REPLAY_PICTURE_MAX_BYTES = 512 * 1024;
/** A frozen page gives up its picture rather than hold up the next operation. */
const PICTURE_TIMEOUT_MS = 2_000;

/** A picture taken: its page, its number, and the page's mark just before it (null: the page could not be marked). */
interface Shown {
  page: Page;
  n: number;
  mark: string | null;
}

export class ReplayPictures {
  #taken = 0;
  #dir?: Promise<string | undefined>;
  readonly #writing = new Map<number, Promise<boolean>>();
  /** The pictures being taken (the bytes not yet back from the browser), and reads deciding whether to share one. */
  readonly #taking = new Set<Promise<unknown>>();
  /** The last picture, once taken (or shared by a read). */
  #last: Promise<Shown | undefined> = Promise.resolve(undefined);

  constructor(
    private readonly projectDir: () => Promise<string>,
    private readonly sessionId: string,
    private readonly max: number,
  ) {}

  /**
   * Starts the picture of `page` for `record` (which gets its number at once) and returns without waiting for it.
   * A read (`changesNothing`) whose page is still as the last picture shows it gets that picture's number
   * instead, once that is known (picture-mark.ts).
   */
  capture(page: Page, record: ReplayAction, { changesNothing = false } = {}): void {
    if (this.#taken >= this.max || page.isClosed()) return;
    const shown = changesNothing ? this.#shareOrTake(this.#last, page, record) : this.#take(page, record);
    this.#last = shown;
    const taking = shown.finally(() => this.#taking.delete(taking));
    this.#taking.add(taking);
  }

  async #shareOrTake(before: Promise<Shown | undefined>, page: Page, record: ReplayAction): Promise<Shown | undefined> {
    const shown = await before;
    if (shown?.page !== page || shown.mark === null || (await pictureMark(page)) !== shown.mark) return this.#take(page, record);
    record.picture = shown.n;
    return shown;
  }

  /** The picture once taken (undefined when it was not, or is too large to keep); its file is written meanwhile. */
  #take(page: Page, record: ReplayAction): Promise<Shown | undefined> {
    if (this.#taken >= this.max || page.isClosed()) return Promise.resolve(undefined);
    const n = ++this.#taken;
    record.picture = n;
    const jpeg = within(viewportJpeg(page), PICTURE_TIMEOUT_MS);
    this.#writing.set(n, this.#write(jpeg.then(({ bytes }) => bytes), n));
    return jpeg.then(
      ({ bytes, mark }) => (bytes.byteLength > REPLAY_PICTURE_MAX_BYTES ? undefined : { page, n, mark }),
      () => undefined,
    );
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
async function viewportJpeg(page: Page): Promise<{ bytes: Buffer; mark: string | null }> {
  // The mark is read before the picture: a change between the two makes a later read's mark differ (a new picture).
  const [{ visualViewport, cssVisualViewport: view, contentSize, cssContentSize }, mark] = await Promise.all([sendCdp<LayoutMetrics>(page, 'Page.getLayoutMetrics'), pictureMark(page)]);
  const deviceScale = contentSize.width / cssContentSize.width || 1;
  const clip = { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight, scale: visualViewport.scale / deviceScale };
  const { data } = await sendCdp<{ data: string }>(page, 'Page.captureScreenshot', { format: 'jpeg', quality: PICTURE_QUALITY, clip });
  return { bytes: Buffer.from(data, 'base64'), mark };
}
