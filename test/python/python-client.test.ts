// The Python client (clients/python): its generated wire shapes are what openapi.yaml generates now, and
// its unittest suite passes against a real server (offline model) and the fixture pages, each request
// and answer checked there against openapi.yaml's schemas.
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
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  // Heartbeats every 20 ms, so the client's streams carry real `: ping` comments between events.
  server = await startTestServer({ DECKHAND_API_KEYS: `${KEY}:python-project`, DECKHAND_SSE_HEARTBEAT_MS: '20', ...ALLOW_FIXTURES });
});

afterAll(async () => {
  await server?.close();
  await fixtures?.close();
});

function unittest(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'python3',
      ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'],
      { cwd: CLIENT_DIR, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}${error && code === -1 ? `\n${error.message}` : ''}` });
      },
    );
  });
}

describe('the Python client', () => {
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
