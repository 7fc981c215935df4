// The Python client (clients/python): its generated wire shapes are what openapi.yaml generates now, its
// unittest suite passes against a real server (offline model) and the fixture pages, each request and
// answer checked there against openapi.yaml's schemas, and the READMEs' examples run as written against
// the server `npm start` gives (no keys; env="LOCAL" starting one of its own).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPython } from '../../codegen/render-python';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startTestServer, type TestServer } from '../support/test-server';

const CLIENT_DIR = fileURLToPath(new URL('../../clients/python/', import.meta.url));
const SPEC = new URL('../../openapi.yaml', import.meta.url);
const GENERATED = new URL('../../clients/python/deckhand/_gen_shapes.py', import.meta.url);
const KEY = 'python-client-key';
/** unittest's marks of a skipped test (`... skipped 'why'`, `OK (skipped=N)`). */
const SKIPPED = /\.\.\. skipped|skipped=/;

let server: TestServer;
let open: TestServer;
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  // Heartbeats every 20 ms, so the client's streams carry real `: ping` comments between events.
  server = await startTestServer({ DECKHAND_API_KEYS: `${KEY}:python-project`, DECKHAND_SSE_HEARTBEAT_MS: '20', ...ALLOW_FIXTURES });
  open = await startTestServer();
});

afterAll(async () => {
  await server?.close();
  await open?.close();
  await fixtures?.close();
});

function python(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'python3',
      args,
      { cwd: CLIENT_DIR, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}${error && code === -1 ? `\n${error.message}` : ''}` });
      },
    );
  });
}

const unittest = (env: Record<string, string>) => python(['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], env);

/** The address the READMEs' examples are written for; the test server has its own port. */
const WRITTEN_FOR = 'http://127.0.0.1:3000';

/** The first ```python block after `heading` in a README. */
async function example(readme: URL, heading: string): Promise<string> {
  const text = await readFile(readme, 'utf8');
  const block = /```python\n([\s\S]*?)```/.exec(text.slice(text.indexOf(heading)))?.[1];
  if (!block) throw new Error(`no python block under ${heading} in ${readme.pathname}`);
  return block;
}

describe('the Python client', () => {
  it.each([
    ['README.md', new URL('../../README.md', import.meta.url), '## The Python client'],
    ['clients/python/README.md', new URL('../../clients/python/README.md', import.meta.url), '# Deckhand Python client'],
  ])('runs the example of %s as written, with no key, printing what its comments say', async (_name, readme, heading) => {
    const script = (await example(readme, heading)).replaceAll(WRITTEN_FOR, open.url);
    // No key in the environment either, as a first-time user has it; the default address is this server's.
    const { code, output } = await python(['-c', script], { DECKHAND_API_KEY: '', BROWSERBASE_API_KEY: '', DECKHAND_API_URL: open.url, STAGEHAND_API_URL: '' });
    if (code !== 0) console.log(output);
    expect(code, 'the example failed (its output is printed above)').toBe(0);
    // Each `print(…)  # <what it prints>` of the example printed that.
    const promised = [...script.matchAll(/^\s*print\(.*\)\s+#\s*(.+)$/gm)].map((m) => m[1]!.trim());
    expect(promised.length).toBeGreaterThan(0);
    for (const line of promised) expect(output).toContain(line);
    expect(output).not.toMatch(/Traceback|UnicodeEncodeError/);
  }, 180_000);

  it('has the wire shapes openapi.yaml generates (run `npm run gen` and commit when this fails)', async () => {
    const expected = renderPython(parse(await readFile(SPEC, 'utf8')));
    expect(await readFile(GENERATED, 'utf8')).toBe(expected);
  });

  it('passes its unittest suite against a running server, nothing skipped', async () => {
    const { code, output } = await unittest({
      DECKHAND_TEST_API_URL: server.url,
      DECKHAND_TEST_API_KEY: KEY,
      DECKHAND_TEST_FIXTURES_URL: fixtures.origin,
    });
    if (code !== 0 || SKIPPED.test(output)) console.log(output);
    expect(code, 'python3 -m unittest failed (its output is printed above)').toBe(0);
    expect(output).toMatch(/\nOK\s*$/);
    expect(output).not.toMatch(SKIPPED);
    // No secret reached the server's log through the client either.
    expect(server.logs.join('\n')).not.toMatch(/sk-python-model-key|hunter2-/);
  }, 300_000);
});
