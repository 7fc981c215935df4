// `npm run build`: turns each runtime package into a publishable package in its dist/ (JS bundled by
// esbuild, one .d.ts per entry by rollup-plugin-dts, a package.json of its own), ready for `npm pack`.
// The workspace keeps running the TypeScript sources through tsx; only dist/ is published.
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const root = fileURLToPath(new URL('..', import.meta.url));

interface PublishedPackage {
  dir: string;
  /** Export subpath → source entry (its types are published beside it). */
  exports: Record<string, string>;
  /** Command → source entry it runs. */
  bins?: Record<string, string>;
  /** Files of the repository shipped beside the bundles (read at run time). */
  assets?: string[];
}

const PACKAGES: PublishedPackage[] = [
  { dir: 'core', exports: { '.': 'src/index.ts', './secrets': 'src/secrets/mask-secrets.ts' } },
  { dir: 'mcp', exports: { '.': 'src/index.ts' }, bins: { 'deckhand-mcp': 'src/main.ts' } },
  { dir: 'server', exports: { '.': 'src/index.ts' }, bins: { deckhand: 'src/cli.ts' }, assets: ['openapi.yaml'] },
  { dir: 'client', exports: { '.': 'src/index.ts' } },
];

/** The contract is generated code of this repository, never published: every package that uses it carries its own copy. */
const INLINED = '@deckhand/contract';
/** Runs the workspace's sources and its bins; a built package needs neither. */
const WORKSPACE_ONLY = new Set([INLINED, 'tsx']);

const entryName = (source: string) => source.replace(/^src\//, '').replace(/\.ts$/, '').replaceAll('/', '-');

async function buildPackage(pkg: PublishedPackage, rootManifest: { engines: unknown }): Promise<void> {
  const dir = `${root}packages/${pkg.dir}`;
  const dist = `${dir}/dist`;
  const manifest = JSON.parse(await readFile(`${dir}/package.json`, 'utf8'));
  const dependencies: Record<string, string> = Object.fromEntries(
    Object.entries<string>(manifest.dependencies ?? {}).filter(([name]) => !WORKSPACE_ONLY.has(name)),
  );
  const external = Object.keys(dependencies);
  const exported = Object.values(pkg.exports);
  const entries = [...exported, ...Object.values(pkg.bins ?? {})];
  await rm(dist, { recursive: true, force: true });

  await build({
    entryPoints: Object.fromEntries(entries.map((source) => [entryName(source), `${dir}/${source}`])),
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // A package name also covers its subpaths (`@deckhand/core/secrets`, `ai/…`).
    external,
    logLevel: 'warning',
  });

  const types = await rollup({
    input: Object.fromEntries(exported.map((source) => [entryName(source), `${dir}/${source}`])),
    external: (id) => id.startsWith('node:') || builtinModules.includes(id) || external.some((name) => id === name || id.startsWith(`${name}/`)),
    plugins: [dts({ respectExternal: true, tsconfig: `${root}tsconfig.json`, compilerOptions: { noEmit: false } })],
  });
  await types.write({ dir: dist, format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: '[name]-[hash].d.ts' });
  await types.close();

  const bins: Record<string, string> = {};
  for (const [command, source] of Object.entries(pkg.bins ?? {})) {
    await mkdir(`${dist}/bin`, { recursive: true });
    const file = `${dist}/bin/${command}.js`;
    await writeFile(file, `#!/usr/bin/env node\nimport '../${entryName(source)}.js';\n`);
    await chmod(file, 0o755);
    bins[command] = `./bin/${command}.js`;
  }
  for (const asset of pkg.assets ?? []) await copyFile(`${root}${asset}`, `${dist}/${asset}`);

  const published = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    type: 'module',
    engines: rootManifest.engines,
    exports: Object.fromEntries(
      Object.entries(pkg.exports).map(([subpath, source]) => [subpath, { types: `./${entryName(source)}.d.ts`, default: `./${entryName(source)}.js` }]),
    ),
    ...(Object.keys(bins).length > 0 && { bin: bins }),
    files: ['*.js', '*.d.ts', ...(Object.keys(bins).length > 0 ? ['bin'] : []), ...(pkg.assets ?? [])],
    dependencies,
  };
  await writeFile(`${dist}/package.json`, `${JSON.stringify(published, null, 2)}\n`);
}

const rootManifest = JSON.parse(await readFile(`${root}package.json`, 'utf8'));
const only = process.argv.slice(2);
for (const pkg of PACKAGES.filter(({ dir }) => only.length === 0 || only.includes(dir))) {
  await buildPackage(pkg, rootManifest);
  process.stdout.write(`built packages/${pkg.dir}/dist\n`);
}
