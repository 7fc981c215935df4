// How many bytes the files under a directory hold, for the per-project disk quota. Symlinks are not
// followed (a browser may plant one pointing anywhere) and a directory that vanishes mid-walk counts 0.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function directorySize(path: string): Promise<number> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
  const names = await readdir(path).catch(() => [] as string[]);
  const sizes = await Promise.all(names.map((name) => directorySize(join(path, name))));
  return sizes.reduce((total, size) => total + size, 0);
}
