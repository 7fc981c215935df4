// A folder of a session's files, reached by name only: a name is one path segment, and only a regular file
// of the folder is read (opened without following a symlink), listed or deleted; a write replaces a symlink
// of that name rather than writing through it.
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { lookup } from 'mime-types';
import { DeckhandError } from '../errors.js';
import type { FileInfo } from '../types.js';

export interface OpenedFile {
  info: FileInfo;
  body: ReadableStream<Uint8Array>;
}

/** A download still being written by Chromium: not a file yet. */
const PARTIAL_DOWNLOAD = /\.crdownload$/;

/** A file's name as a client gives it: one path segment, printable, at most 255 UTF-8 bytes (the filesystem's limit). */
export function checkFileName(name: string, path = 'path.name'): string {
  const problem =
    name.length === 0 || Buffer.byteLength(name) > 255
      ? 'must be 1 to 255 bytes in UTF-8 (an accented letter takes 2)'
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
export class FileFolder {
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

  /**
   * Writes the files of one request, all or none: each whole under a temporary name first (a reader never
   * sees half of one), then, if the client is still there (`signal`), each renamed to its name. A later
   * file of the same name replaces an earlier one.
   */
  async writeAll(files: Array<{ name: string; bytes: Uint8Array }>, signal?: AbortSignal): Promise<FileInfo[]> {
    const dir = await this.dir();
    const temporaries = files.map(() => join(dir, `.deckhand-${randomUUID()}`));
    const renamed: string[] = [];
    let current = files[0]?.name ?? '';
    try {
      for (const [k, { name, bytes }] of files.entries()) {
        current = name;
        await writeFile(temporaries[k]!, bytes, { mode: 0o600, flag: 'wx' });
      }
      if (signal?.aborted) throw new DeckhandError('timeout', 'The client went away before its files were stored; none of them was stored');
      for (const [k, { name }] of files.entries()) {
        current = name;
        await rename(temporaries[k]!, join(dir, checkFileName(name)));
        renamed.push(join(dir, name));
      }
    } catch (error) {
      // Only a filesystem refusing a name fails a rename: the request's files renamed before it go too.
      await Promise.all([...temporaries, ...renamed].map((path) => rm(path, { force: true })));
      throw refusedByFilesystem(error, current) ?? error;
    }
    const now = new Date();
    const latest = new Map(files.map(({ name, bytes }) => [name, infoOf(name, bytes.byteLength, now)]));
    return [...latest.values()];
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

/** A filesystem's refusal of a name or of the bytes, as the client's error rather than the server's. */
function refusedByFilesystem(error: unknown, name: string): DeckhandError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENAMETOOLONG' || code === 'EINVAL' || code === 'EILSEQ' || code === 'EISDIR') {
    const message = `the filesystem refuses this name (${code})`;
    return new DeckhandError('validation_error', `Invalid request: name: ${message}`, [{ path: 'name', message }]);
  }
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') {
    return new DeckhandError('disk_quota', `The server's disk has no room for "${name}" (${code})`);
  }
  return undefined;
}

function infoOf(name: string, size: number, modified: Date): FileInfo {
  return { name, size, modifiedAt: modified.toISOString(), mimeType: lookup(name) || 'application/octet-stream' };
}
