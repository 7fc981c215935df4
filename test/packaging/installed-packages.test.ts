// The published packages, packed and installed into an empty directory (packed-install.ts), run there as a
// user runs them: `npx deckhand-mcp --help`, `deckhand-mcp` over stdio from another directory (as an MCP
// client's configuration starts it), `npx deckhand serve`, and a TypeScript script that imports the client,
// type-checked against the installed declarations (NodeNext) and run against that server.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { installPackedPackages, type PackedInstall } from './packed-install';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = await readFile(`${ROOT}README.md`, 'utf8');

let installed: PackedInstall;
let fixtures: FixtureServer;
/** An empty directory elsewhere, the working directory of commands run "from anywhere". */
let elsewhere: string;
let env: Record<string, string>;

beforeAll(async () => {
  installed = await installPackedPackages();
  fixtures = await startFixtureServer();
  elsewhere = await mkdtemp(join(tmpdir(), 'deckhand-elsewhere-'));
  env = {
    ...(process.env as Record<string, string>),
    ...ALLOW_FIXTURES,
    DECKHAND_POOL_SIZE: '0',
    DECKHAND_DATA_DIR: join(elsewhere, 'data'),
    DECKHAND_CACHE_DIR: '',
    DECKHAND_API_KEYS: '',
    DECKHAND_API_URL: '',
    DECKHAND_API_KEY: '',
  };
  const { sizes, timings } = installed;
  console.log(
    `packaging: tarballs ${Object.entries(sizes).map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(0)} KiB`).join(', ')}; ` +
      `build ${(timings.build / 1000).toFixed(1)} s, pack ${(timings.pack / 1000).toFixed(1)} s, install into an empty directory ${(timings.install / 1000).toFixed(1)} s`,
  );
}, 900_000);

afterAll(async () => {
  await fixtures?.close();
  await installed?.remove();
  if (elsewhere) await rm(elsewhere, { recursive: true, force: true });
});

function run(command: string, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...env, ...extra }, timeout: 120_000 }, (error, out, err) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out, err });
    });
  });
}

/** The flags of the README's `deckhand-mcp` flags table. */
function readmeMcpFlags(): string[] {
  const table = README.slice(README.indexOf('`deckhand-mcp` flags'), README.indexOf('**Remote mode.**'));
  return [...table.matchAll(/^\| `(--[A-Za-z]+)/gm)].map((match) => match[1]!);
}

describe('the packed packages, installed into an empty directory', () => {
  it('are the four runtime packages, each a tarball with the bins linked', () => {
    expect(Object.keys(installed.sizes).sort()).toEqual(['@deckhand/client', '@deckhand/core', '@deckhand/mcp', '@deckhand/server']);
  });

  it('npx deckhand-mcp --help exits 0 and lists every flag the README documents', async () => {
    const started = performance.now();
    const { code, out, err } = await run('npx', ['deckhand-mcp', '--help'], installed.dir);
    console.log(`packaging: npx deckhand-mcp --help took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(code, err).toBe(0);
    const flags = readmeMcpFlags();
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) expect(out, flag).toContain(flag);
  });

  it('deckhand-mcp on PATH serves its tools over stdio from another directory (an MCP client configuration)', async () => {
    const transport = new StdioClientTransport({
      command: 'deckhand-mcp',
      args: ['--browserWidth', '1280', '--browserHeight', '800'],
      cwd: elsewhere,
      env: { ...env, PATH: `${join(installed.dir, 'node_modules', '.bin')}${delimiter}${env.PATH}` },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'packaging-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['navigate', 'act', 'observe', 'extract', 'start', 'end']));
      const navigated = await client.callTool({ name: 'navigate', arguments: { url: `${fixtures.origin}/forms.html` } });
      expect(navigated.isError, JSON.stringify(navigated.content)).toBeFalsy();
      const acted = await client.callTool({ name: 'act', arguments: { action: 'click the Go button' } });
      expect(acted.isError, JSON.stringify(acted.content)).toBeFalsy();
      const extracted = await client.callTool({ name: 'extract', arguments: {} });
      expect(JSON.stringify(extracted.structuredContent)).toContain('clicked: go');
      await client.callTool({ name: 'end', arguments: {} });
    } finally {
      await client.close();
    }
  }, 120_000);

  it('npx deckhand serve --help lists its flags', async () => {
    const { code, out, err } = await run('npx', ['deckhand', 'serve', '--help'], installed.dir);
    expect(code, err).toBe(0);
    expect(out).toContain('--port <port>');
    expect(out).toContain('--host <host>');
    expect(out).toContain('DECKHAND_API_KEYS');
  });

  it('npx deckhand serve --port 0 answers /healthz and its contract, and the installed client drives a session there', async () => {
    const child = spawn('npx', ['deckhand', 'serve', '--port', '0'], { cwd: installed.dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // Once npx and the server it runs (which writes to the same pipe) are gone and the output is read to the end:
    // npx's 'exit' can come before the server's last line is read.
    const exited = once(child, 'close');
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`deckhand serve exited ${code} before listening: ${out}`)));
      });
      const health = await fetch(`${url}/healthz`);
      expect(await health.json()).toMatchObject({ ok: true });
      // The contract ships inside the server package.
      expect(await (await fetch(`${url}/openapi.yaml`)).text()).toBe(await readFile(`${ROOT}openapi.yaml`, 'utf8'));

      // A user's script: TypeScript against the installed declarations (a wrong type fails the check), run by node.
      await writeFile(
        join(installed.dir, 'session.mts'),
        [
          `import { Deckhand } from '@deckhand/client';`,
          `const baseURL = process.argv[2]!;`,
          `const deckhand = new Deckhand({ env: 'BROWSERBASE', baseURL, verbose: 0 });`,
          `const { sessionId } = await deckhand.init();`,
          `await deckhand.goto(\`\${baseURL}/demo\`);`,
          `await deckhand.act('type "Ada" into the Name field');`,
          `const clicked: boolean = (await deckhand.act('click the Say hello button')).success;`,
          `const greeting = await deckhand.extract(undefined, undefined, { selector: '#greeting' });`,
          `await deckhand.close();`,
          `console.log(JSON.stringify({ sessionId, clicked, greeting }));`,
        ].join('\n'),
      );
      const tsc = await run(
        `${ROOT}node_modules/.bin/tsc`,
        ['--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', `${ROOT}node_modules/@types`, 'session.mts'],
        installed.dir,
      );
      expect(tsc.code, tsc.out).toBe(0);
      const script = await run(process.execPath, ['session.mjs', url], installed.dir);
      expect(script.code, script.err).toBe(0);
      const result = JSON.parse(script.out);
      expect(result).toMatchObject({ clicked: true, greeting: { pageText: 'Hello, Ada!' } });
      expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      // close() ended the session.
      expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ sessions: 0 });
    } finally {
      // npx runs the bin as its child: signal the group.
      process.kill(-child.pid!, 'SIGTERM');
    }
    await exited;
    expect(out).toContain('SIGTERM: ending every session');
  }, 180_000);
});
