// A session's files: what its pages downloaded (<project>/downloads/<session>/, where the relay sends
// downloads too) and what a client sent it for its pages to upload (<project>/files/<session>/). A file is
// named by one path segment, and only a regular file in its folder is read, so no name reaches elsewhere.
import { constants } from 'node:fs';
import { lstat, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { lookup } from 'mime-types';
import type { BrowserContext, Download, Page } from 'playwright-core';
import { confinedDirectory, giveToBrowserUser, projectDirName } from '../browser/project-data-dir.js';
import type { CoreConfig } from '../config.js';
import { DeckhandError } from '../errors.js';
import type { SessionRelayScope } from './relay-scope.js';

export interface FileInfo {
  name: string;
  size: number;
  modifiedAt: string;
  mimeType: string;
}

export interface OpenedFile {
  info: FileInfo;
  body: ReadableStream<Uint8Array>;
}

/** A download still being written by Chromium: not a file yet. */
const PARTIAL_DOWNLOAD = /\.crdownload$/;

/** How long a listing waits for downloads that have begun to be saved. */
const DOWNLOAD_SAVE_WAIT_MS = 10_000;

/** A file's name as a client gives it: one path segment, printable, at most 255 characters. */
export function checkFileName(name: string, path = 'path.name'): string {
  const problem =
    name.length === 0 || name.length > 255
      ? 'must be 1 to 255 characters'
      : /[\x00-\x1f\x7f]/.test(name)
        ? 'must not contain control characters'
        : /[/\\]/.test(name)
          ? 'must be a file name, without "/" or "\\"'
          : name === '.' || name === '..'
            ? 'must be a file name, not "." or ".."'
            : undefined;
  if (problem) throw new DeckhandError('validation_error', `Invalid request: ${path}: ${problem}`, [{ path, message: problem }]);
  return name;
}

/** One folder of regular files, each named by one segment. */
class FileFolder {
  constructor(
    private readonly kind: 'download' | 'file',
    private readonly dir: () => Promise<string>,
  ) {}

  async list(): Promise<FileInfo[]> {
    const dir = await this.dir();
    const entries = await readdir(dir, { withFileTypes: true });
    const files: FileInfo[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || PARTIAL_DOWNLOAD.test(entry.name) || entry.name.startsWith('.deckhand-')) continue;
      const stat = await lstat(join(dir, entry.name)).catch(() => undefined);
      if (stat?.isFile()) files.push(infoOf(entry.name, stat.size, stat.mtime));
    }
    return files.sort((a, b) => a.modifiedAt.localeCompare(b.modifiedAt) || a.name.localeCompare(b.name));
  }

  /** The file, opened without following a symlink, or file_not_found. */
  async open(name: string): Promise<OpenedFile> {
    const path = join(await this.dir(), checkFileName(name));
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
    const stat = await handle?.stat();
    if (!handle || !stat?.isFile()) {
      await handle?.close();
      throw this.#notFound(name);
    }
    return { info: infoOf(name, stat.size, stat.mtime), body: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array> };
  }

  /** The path of a regular file of the folder (for the page to upload), or file_not_found. */
  async path(name: string): Promise<string> {
    const path = join(await this.dir(), checkFileName(name));
    const stat = await lstat(path).catch(() => undefined);
    if (!stat?.isFile()) throw this.#notFound(name);
    return path;
  }

  async remove(name: string): Promise<void> {
    await rm(await this.path(name));
  }

  /** Writes the whole file under a temporary name first, so a reader never sees half of it. */
  async write(name: string, bytes: Uint8Array): Promise<FileInfo> {
    const dir = await this.dir();
    const temporary = join(dir, `.deckhand-${randomUUID()}`);
    await writeFile(temporary, bytes, { mode: 0o600, flag: 'wx' });
    await rename(temporary, join(dir, checkFileName(name)));
    return infoOf(name, bytes.byteLength, new Date());
  }

  /** `name`, or `name (1)`, `name (2)`… before its extension: the first not taken. */
  async freeName(name: string): Promise<string> {
    const dir = await this.dir();
    const extension = extname(name);
    const stem = name.slice(0, name.length - extension.length);
    for (let n = 0; ; n++) {
      const candidate = n === 0 ? name : `${stem} (${n})${extension}`;
      if (!(await lstat(join(dir, candidate)).then(() => true, () => false))) return candidate;
    }
  }

  #notFound(name: string): DeckhandError {
    return new DeckhandError('file_not_found', `No ${this.kind} named "${name}" in this session`);
  }
}

function infoOf(name: string, size: number, modified: Date): FileInfo {
  return { name, size, modifiedAt: modified.toISOString(), mimeType: lookup(name) || 'application/octet-stream' };
}

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

  constructor(
    private readonly config: CoreConfig,
    private readonly scope: SessionRelayScope,
    private readonly sessionId: string,
    /** Refuses (429 disk_quota) when `bytes` more would take the project past its quota. */
    private readonly diskRoom: (bytes: number) => Promise<void>,
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

  /** Stores a client's file for the session's pages, within the project's disk quota. */
  async upload(name: string, bytes: Uint8Array): Promise<FileInfo> {
    checkFileName(name, 'query.name');
    await this.diskRoom(bytes.byteLength);
    const info = await this.uploads.write(name, bytes);
    const path = await this.uploads.path(name);
    await this.scope.shareFile(path);
    return info;
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

  /** Removes both folders (the session has ended). */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.#saving]);
    const uploads = await this.#uploadsDir?.catch(() => undefined);
    if (uploads) await rm(uploads, { recursive: true, force: true });
  }

  #save(download: Download): void {
    const saving = (async () => {
      const dir = await this.scope.downloadsDir();
      const name = await this.downloads.freeName(downloadName(download));
      await download.saveAs(join(dir, name));
      await download.delete();
    })().catch(() => undefined);
    this.#saving.add(saving);
    void saving.finally(() => this.#saving.delete(saving));
  }

  async #makeUploadsDir(): Promise<string> {
    const root = await this.scope.projectDir();
    const made = await confinedDirectory(root, `files/${projectDirName(this.sessionId)}`);
    if ('problem' in made) throw new Error(`The session's files directory ${made.problem}`);
    const { user } = this.config.browserIdentity;
    if (user) await giveToBrowserUser(root, made.path, user);
    return made.path;
  }
}
