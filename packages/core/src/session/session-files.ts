// A session's files: what its pages downloaded (<project>/downloads/<owner>/<session>/, where the relay
// sends downloads too) and what a client sent it for its pages to upload (<project>/files/<owner>/<session>/);
// both count toward the project's disk and go with the session, or, if this process is killed, with the
// next process's sweep (<owner> names this process: host/process-owner.ts).
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BrowserContext, Download, Page } from 'playwright-core';
import { confinedDirectory, giveToBrowserUser, projectDirName } from '../browser/project-data/project-data-dir.js';
import type { CoreConfig } from '../config.js';
import { PROCESS_OWNER } from '../host/process-owner.js';
import { DeckhandError } from '../errors.js';
import type { FileInfo } from '../types.js';
import { checkFileName, FileFolder } from './file-folder.js';
import type { SessionRelayScope } from './relay-scope.js';

export type { OpenedFile } from './file-folder.js';

/** How many files a client may send one session (more would make every listing slow). */
export const MAX_SESSION_FILES = 200;

/** How long a listing waits for downloads that have begun to be saved. */
const DOWNLOAD_SAVE_WAIT_MS = 10_000;

/** A page's suggested name as one safe segment (a page may suggest anything). */
function downloadName(download: Download): string {
  const suggested = download.suggestedFilename().replace(/[\x00-\x1f\x7f/\\]/g, '_').slice(-200);
  return suggested === '' || suggested === '.' || suggested === '..' ? 'download' : suggested;
}

export class SessionFiles {
  readonly downloads: FileFolder;
  readonly uploads: FileFolder;
  /** Downloads being saved, so a listing right after the click that began one includes it. */
  readonly #saving = new Set<Promise<unknown>>();
  #uploadsDir?: Promise<string>;
  /** Files being written now, counted toward MAX_SESSION_FILES with those written. */
  #writing = 0;

  constructor(
    private readonly config: CoreConfig,
    private readonly scope: SessionRelayScope,
    private readonly sessionId: string,
    /** Reserves `bytes` within the project's quota (429 disk_quota when they would take it past); returns the release, told whether they were written. */
    private readonly reserveDisk: (bytes: number) => Promise<(written: boolean) => void>,
    /** Whether the download with this browser guid completed past the project's quota (it is dropped, not kept). */
    private readonly downloadRefused: (guid: string) => boolean,
    /** Leave the browser's own copy (a downloadsPath the client chose); otherwise it is moved, so it counts once. */
    private readonly keepBrowserCopy = false,
  ) {
    this.downloads = new FileFolder('download', () => scope.downloadsDir());
    this.uploads = new FileFolder('file', () => (this.#uploadsDir ??= this.#makeUploadsDir()));
  }

  /** Saves every download of the context's pages into the session's downloads, under the name the page suggested. */
  watchDownloads(context: BrowserContext): void {
    const watch = (page: Page) => page.on('download', (download) => this.#save(download));
    context.pages().forEach(watch);
    context.on('page', watch);
  }

  async listDownloads(): Promise<FileInfo[]> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((resolve) => (timer = setTimeout(resolve, DOWNLOAD_SAVE_WAIT_MS)));
    await Promise.race([Promise.allSettled([...this.#saving]), waited]);
    clearTimeout(timer);
    return this.downloads.list();
  }

  /** Stores one file a client sent (see uploadAll). */
  async upload(name: string, bytes: Uint8Array, namePath = 'query.name'): Promise<FileInfo> {
    const [info] = await this.uploadAll([{ name, bytes, namePath }]);
    return info!;
  }

  /**
   * Stores the files of one request for the session's pages, all or none: within the project's disk quota
   * (reserved for all of them at once, so a refusal keeps nothing) and the session's MAX_SESSION_FILES (a
   * file of a name it holds is replaced, not one more). `namePath` says where a name came from, for the
   * error; a request whose client has gone (`signal`) before they are all written stores none.
   */
  async uploadAll(files: Array<{ name: string; bytes: Uint8Array; namePath: string }>, signal?: AbortSignal): Promise<FileInfo[]> {
    for (const { name, namePath } of files) checkFileName(name, namePath);
    const held = new Set((await this.uploads.list()).map((file) => file.name));
    const adding = new Set(files.map((file) => file.name).filter((name) => !held.has(name))).size;
    if (held.size + this.#writing + adding > MAX_SESSION_FILES) {
      throw new DeckhandError('disk_quota', `The session holds ${held.size} files and may hold ${MAX_SESSION_FILES} files: delete some (DELETE /v1/sessions/{id}/files/{name}) before sending more`);
    }
    this.#writing += adding;
    try {
      const release = await this.reserveDisk(files.reduce((sum, file) => sum + file.bytes.byteLength, 0));
      let written = false;
      try {
        const stored = await this.uploads.writeAll(files, signal);
        written = true;
        for (const { name } of stored) await this.scope.shareFile(await this.uploads.path(name));
        return stored;
      } finally {
        release(written);
      }
    } finally {
      this.#writing -= adding;
    }
  }

  /** The paths of sent files, by name, for the page to upload (Chromium may run as another user). */
  uploadedPaths(names: string[]): Promise<string[]> {
    return Promise.all(
      names.map(async (name) => {
        const path = await this.uploads.path(name);
        await this.scope.shareFile(path);
        return path;
      }),
    );
  }

  /** Whether the session holds files: a folder was made, or a download is being saved. */
  get held(): boolean {
    return this.#uploadsDir !== undefined || this.#saving.size > 0 || this.scope.madeDownloads();
  }

  /** Removes both folders (the session has ended). */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.#saving]);
    const uploads = await this.#uploadsDir?.catch(() => undefined);
    if (uploads) await rm(uploads, { recursive: true, force: true });
  }

  #save(download: Download): void {
    const saving = (async () => {
      // The browser's copy is named for the download's guid (Playwright asks Chromium to name it so).
      if (this.downloadRefused(basename(await download.path()))) return await download.delete();
      const dir = await this.scope.downloadsDir();
      const name = await this.downloads.freeName(downloadName(download));
      await download.saveAs(join(dir, name));
      if (!this.keepBrowserCopy) await download.delete();
    })().catch(() => undefined);
    this.#saving.add(saving);
    void saving.finally(() => this.#saving.delete(saving));
  }

  async #makeUploadsDir(): Promise<string> {
    const root = await this.scope.projectDir();
    const made = await confinedDirectory(root, `files/${PROCESS_OWNER}/${projectDirName(this.sessionId)}`);
    if ('problem' in made) throw new Error(`The session's files directory ${made.problem}`);
    const { user } = this.config.browserIdentity;
    if (user) await giveToBrowserUser(root, made.path, user);
    return made.path;
  }
}
