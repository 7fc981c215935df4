// How many bytes the files under a directory hold, for the per-project disk quota. Symlinks are not
// followed (a browser may plant one pointing anywhere) and a directory that vanishes mid-walk counts 0.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** How many times a directory is listed while files in it vanish between its listing and their lstat. */
const LISTINGS = 3;

export async function directorySize(path: string): Promise<number> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat) return 0;
  return stat.isDirectory() ? contentsSize(path) : stat.isFile() ? stat.size : 0;
}

/**
 * The directory's entries say which are directories and files, so only files need an lstat (for their size).
 * A file gone between the listing and its lstat may have been renamed (Chromium renames a finished download
 * from its temporary name): the directory is listed again and the names not yet counted are added, so a
 * renamed file is counted under its new name rather than missed.
 */
async function contentsSize(dir: string): Promise<number> {
  const counted = new Set<string>();
  let total = 0;
  for (let listing = 0; listing < LISTINGS; listing++) {
    const entries = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((entry) => !counted.has(entry.name));
    let vanished = false;
    const sizes = await Promise.all(
      entries.map(async (entry) => {
        const path = join(dir, entry.name);
        if (!entry.isDirectory() && !entry.isFile()) return 0;
        counted.add(entry.name);
        if (entry.isDirectory()) return contentsSize(path);
        const stat = await lstat(path).catch(() => undefined);
        if (!stat) {
          counted.delete(entry.name);
          vanished = true;
        }
        return stat?.size ?? 0;
      }),
    );
    total += sizes.reduce((sum, size) => sum + size, 0);
    if (!vanished) break;
  }
  return total;
}
