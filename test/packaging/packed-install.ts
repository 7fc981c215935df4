// The published packages as a user gets them: `npm run build`, `npm pack` of each package's dist/, and the
// tarballs installed into an empty directory. The install needs no network: its lockfile is cut from the
// workspace's (each dependency at the version the workspace tests, fetched from npm's cache, which `npm ci`
// filled), so a dependency a package uses but does not declare is missing there, as it would be for a user.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The published packages, by their directory under packages/. */
export const PUBLISHED = ['core', 'mcp', 'server', 'client'] as const;

interface LockEntry {
  version?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

export interface PackedInstall {
  /** The directory the tarballs were installed into (its node_modules/.bin has `deckhand` and `deckhand-mcp`). */
  dir: string;
  /** Each tarball's size in bytes, by package name. */
  sizes: Record<string, number>;
  /** Milliseconds of the build, of packing, and of the install into the empty directory. */
  timings: { build: number; pack: number; install: number };
  /** Removes the tarballs and the installation (a few hundred MB). */
  remove(): Promise<void>;
}

/** Where `from` (a lockfile path) finds `name`: its own node_modules, then each enclosing one, as Node looks. */
function resolveIn(lock: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (!dir) return undefined;
  }
}

/**
 * A lockfile for a project depending on the tarballs alone: the workspace's entries every published package
 * reaches through its dependencies, at the same places (a package's own nested node_modules moves with it).
 */
function lockfileFor(workspaceLock: { packages: Record<string, LockEntry> }, manifests: Map<string, { name: string; file: string; manifest: LockEntry }>): object {
  const lock = workspaceLock.packages;
  const packages: Record<string, LockEntry> = {};
  const byName = new Map([...manifests.values()].map((packed) => [packed.name, packed]));
  const visit = (from: string, to: string, entry: LockEntry) => {
    const required = Object.entries(entry.peerDependencies ?? {}).filter(([name]) => !entry.peerDependenciesMeta?.[name]?.optional);
    for (const [name] of [...Object.entries(entry.dependencies ?? {}), ...Object.entries(entry.optionalDependencies ?? {}), ...required]) {
      if (byName.has(name)) continue;
      const found = resolveIn(lock, from, name);
      if (!found) {
        if (entry.optionalDependencies?.[name]) continue;
        throw new Error(`${name}, a dependency of ${to || 'the project'}, is not in the workspace's lockfile`);
      }
      const target = found.startsWith(`${from}/`) ? `${to}${found.slice(from.length)}` : found;
      if (packages[target]) continue;
      const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = lock[found]!;
      packages[target] = kept;
      visit(found, target, kept);
    }
  };
  for (const [dir, packed] of manifests) {
    const at = `node_modules/${packed.name}`;
    const { version, dependencies, bin } = packed.manifest;
    packages[at] = { version, resolved: `file:${packed.file}`, dependencies, ...(bin !== undefined && { bin }) };
    visit(`packages/${dir}`, at, packed.manifest);
  }
  const dependencies = Object.fromEntries([...manifests.values()].map(({ name, file }) => [name, `file:${file}`]));
  return { name: 'installed', lockfileVersion: 3, requires: true, packages: { '': { name: 'installed', dependencies }, ...packages } };
}

/** Builds, packs and installs the published packages into a new empty directory. */
export async function installPackedPackages(): Promise<PackedInstall> {
  let started = performance.now();
  // Not through turbo: this test runs inside `npm test`'s own turbo task.
  await run('npm', ['run', 'build'], { cwd: ROOT });
  const build = performance.now() - started;

  started = performance.now();
  const tarballs = await mkdtemp(join(tmpdir(), 'deckhand-tarballs-'));
  const manifests = new Map<string, { name: string; file: string; manifest: LockEntry }>();
  const sizes: Record<string, number> = {};
  for (const dir of PUBLISHED) {
    const { stdout } = await run('npm', ['pack', `packages/${dir}/dist`, '--pack-destination', tarballs, '--json'], { cwd: ROOT });
    const [{ filename, name }] = JSON.parse(stdout) as { filename: string; name: string }[];
    const file = join(tarballs, filename);
    manifests.set(dir, { name, file, manifest: JSON.parse(await readFile(`${ROOT}packages/${dir}/dist/package.json`, 'utf8')) });
    sizes[name] = (await stat(file)).size;
  }
  const pack = performance.now() - started;

  const dir = await mkdtemp(join(tmpdir(), 'deckhand-installed-'));
  const workspaceLock = JSON.parse(await readFile(`${ROOT}package-lock.json`, 'utf8'));
  const lockfile = lockfileFor(workspaceLock, manifests) as { packages: { '': object } };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(lockfile.packages[''], null, 2)}\n`);
  await writeFile(join(dir, 'package-lock.json'), `${JSON.stringify(lockfile, null, 2)}\n`);
  started = performance.now();
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir });
  const install = performance.now() - started;
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(tarballs, { recursive: true, force: true });
  };
  return { dir, sizes, timings: { build, pack, install }, remove };
}
