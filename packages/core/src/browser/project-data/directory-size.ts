// How many bytes the files under a directory hold, for the per-project disk quota. Symlinks are not
// followed (a browser may plant one pointing anywhere) and a directory that vanishes mid-walk counts 0.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function directorySize(path: string): Promise<number> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat) return 0;
  return stat.isDirectory() ? contentsSize(path) : stat.isFile() ? stat.size : 0;
}

/** The directory's entries say which are directories and files, so only files need an lstat (for their size). */
async function contentsSize(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return contentsSize(path);
      return entry.isFile() ? lstat(path).then((stat) => stat.size, () => 0) : 0;
    }),
  );
  return sizes.reduce((total, size) => total + size, 0);
}
