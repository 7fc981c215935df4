// Paths a client may choose (a persistent profile, a downloads folder) live inside its project's own
// directory, <dataDir>/<project>/. A client path is relative to it: absolute paths, `..` and symlinks
// that lead elsewhere are refused, so one project can reach neither the host nor another project.
import { createHash } from 'node:crypto';
import { chmod, lchown, lstat, mkdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { BrowserUser } from '../../host/browser-user.js';

/**
 * A directory name for a project id, distinct for distinct ids: bytes other than letters, digits,
 * `_` and `-` are percent-encoded (so `.` and `..` cannot occur); a long result becomes `~` and a
 * hash (`~` is always encoded, so the two forms never meet).
 */
export function projectDirName(projectId: string): string {
  const encoded = [...Buffer.from(projectId, 'utf8')]
    .map((byte) => (/[A-Za-z0-9_-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
  if (encoded.length > 0 && encoded.length <= 100) return encoded;
  return `~${createHash('sha256').update(projectId).digest('hex')}`;
}

/**
 * The project's directory (created on first use), as a real path. The data directory above it can be
 * passed through but not listed, so a browser running as another user reaches a project directory by name.
 */
export async function projectDataDir(dataDir: string, projectId: string): Promise<string> {
  await mkdir(dataDir, { recursive: true, mode: 0o711 });
  const dir = resolve(dataDir, projectDirName(projectId));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return realpath(dir);
}

/**
 * Makes `path` and the directories between it and the project's directory `root` (both real paths) the
 * browser user's, so the Chromium that runs as it can write its profile or downloads there. lchown: a
 * symlink is never followed. The data directory above gets the browser user's group with search
 * permission, so that user (and no other) can pass through it even when the operator made it 0700.
 */
export async function giveToBrowserUser(root: string, path: string, user: BrowserUser): Promise<void> {
  const dataDir = dirname(root);
  const stat = await lstat(dataDir);
  if (stat.gid !== user.gid && (stat.mode & 0o001) === 0) await lchown(dataDir, stat.uid, user.gid);
  if ((stat.mode & 0o011) === 0) await chmod(dataDir, (stat.mode & 0o7777) | 0o010);
  let current = root;
  await lchown(current, user.uid, user.gid);
  for (const part of relative(root, path).split(sep).filter(Boolean)) {
    current = resolve(current, part);
    await lchown(current, user.uid, user.gid);
  }
}

/**
 * Resolves a client path inside `root` (a real path) and creates that directory; answers the real
 * path, or what is wrong with the request.
 */
export async function confinedDirectory(root: string, requested: string): Promise<{ path: string } | { problem: string }> {
  if (/[\x00-\x1f\x7f]/.test(requested)) return { problem: 'contains a control character' };
  if (requested.length > 1024) return { problem: 'is longer than 1024 characters' };
  if (isAbsolute(requested)) return { problem: "must be relative to the project's data directory (absolute paths are not allowed)" };
  if (requested.split('/').includes('..')) return { problem: 'must not contain ".."' };
  const target = resolve(root, requested);
  if (target === root) return { problem: "must name a directory inside the project's data directory" };
  // A symlink on the way (or the target itself) may point out: what exists must resolve inside.
  const existing = await nearestExisting(target);
  const real = await realpath(existing).catch(() => undefined);
  if (!real || !isInside(root, real)) return { problem: "leads outside the project's data directory" };
  try {
    await mkdir(target, { recursive: true, mode: 0o700 });
  } catch {
    return { problem: 'is not a directory that can be created' };
  }
  const created = await realpath(target);
  return isInside(root, created) ? { path: created } : { problem: "leads outside the project's data directory" };
}

/** The path itself or its closest ancestor that exists (a dangling symlink counts as existing). */
async function nearestExisting(path: string): Promise<string> {
  for (let current = path; ; current = dirname(current)) {
    if (await lstat(current).then(() => true, () => false)) return current;
    if (dirname(current) === current) return current;
  }
}

export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}
