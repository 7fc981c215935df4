// The deckhand-mcp binary's flags: --help, the viewport flags seen by the page, --contextId keeping a
// profile across runs (and --persist false not using it), and the refusals of settings it cannot honour.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startTestServer } from '../support/test-server';
import { connectHttp, connectStdio, runBin, startSelfHosted, text, type Era } from './mcp-clients';

const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-mcp-bin-'));
const ENV = { ...ALLOW_FIXTURES, DECKHAND_DATA_DIR: dataDir, DECKHAND_CACHE_DIR: '' };
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.close();
});

/** The probe page's text in a fresh stdio run with these flags. */
async function probe(args: string[], era: Era = 'legacy'): Promise<string> {
  const connection = await connectStdio(era, args, ENV);
  try {
    await connection.client.callTool({ name: 'navigate', arguments: { url: fixtures.url('mcp-probe.html') } });
    const extracted = await connection.client.callTool({ name: 'extract', arguments: {} });
    return (extracted.structuredContent as { extraction: string }).extraction;
  } finally {
    await connection.close();
  }
}

describe('deckhand-mcp flags', () => {
  it('--help lists all twelve flags with their defaults', async () => {
    const { code, out } = await runBin(['--help']);
    expect(code).toBe(0);
    for (const flag of ['--proxies', '--verified', '--keepAlive', '--contextId <contextId>', '--persist [boolean]', '--port <port>', '--host <host>', '--browserWidth <width>', '--browserHeight <height>', '--modelName <model>', '--modelApiKey <key>', '--experimental']) {
      expect(out).toContain(flag);
    }
    // commander wraps the text to the terminal width.
    for (const fallback of [/default:\s+"localhost"/, /default:\s+1024/, /default:\s+768/, /default:\s+"builtin\/offline"/, /default:\s+true/]) {
      expect(out).toMatch(fallback);
    }
  });

  it('opens pages at 1024×768 by default and at the --browserWidth/--browserHeight asked for', async () => {
    expect(await probe([])).toContain('viewport 1024x768');
    expect(await probe(['--browserWidth', '800', '--browserHeight', '600'])).toContain('viewport 800x600');
  }, 60_000);

  it('--contextId keeps the profile (storage) across runs; --persist false starts fresh', async () => {
    expect(await probe(['--contextId', 'kept'])).toContain('visits 1');
    expect(await probe(['--contextId', 'kept'], 'modern')).toContain('visits 2');
    expect(await probe(['--contextId', 'kept', '--persist', 'false'])).toContain('visits 1');
    expect(await probe(['--contextId', 'kept', '--persist'])).toContain('visits 3');
  }, 120_000);

  it.each([
    [['--proxies'], {}, /--proxies needs a proxy.*DECKHAND_PROXY_URL/],
    [['--modelName', 'openai/gpt-4.1-mini'], {}, /modelApiKey is required/],
    [['--port', '0', '--host', '0.0.0.0'], {}, /DECKHAND_MCP_API_KEY/],
    [['--persist', 'maybe'], {}, /expected 'true' or 'false'/],
    [['--browserWidth', 'wide'], {}, /whole number of pixels/],
    [['--port', '0'], { DECKHAND_API_URL: 'http://127.0.0.1:1', DECKHAND_API_KEY: 'k' }, /--port is for a local browser/],
  ])('refuses %j clearly', async (args, env, message) => {
    const { code, err } = await runBin(args, env);
    expect(code).not.toBe(0);
    expect(err).toMatch(message);
  });

  it('warns that --verified has no counterpart, and serves anyway', async () => {
    const server = await startSelfHosted(['--verified'], ENV);
    try {
      const connection = await connectHttp(server.url, 'legacy');
      expect((await connection.client.listTools()).tools).toHaveLength(8); // the six and the default read group
      await connection.close();
    } finally {
      await server.stop();
    }
  });

  it('requires DECKHAND_MCP_API_KEY on the self-hosted endpoint once it is set', async () => {
    const server = await startSelfHosted([], { ...ENV, DECKHAND_MCP_API_KEY: 'local-secret' });
    try {
      const refused = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ success: false, code: 'unauthorized' });
      const connection = await connectHttp(server.url, 'modern', { authorization: 'Bearer local-secret' });
      expect((await connection.client.listTools()).tools).toHaveLength(8); // the six and the default read group
      await connection.close();
    } finally {
      await server.stop();
    }
  });

  it('drives a remote Deckhand when DECKHAND_API_URL and DECKHAND_API_KEY are set: sessions are the key’s project’s there', async () => {
    const remote = await startTestServer({ ...ALLOW_FIXTURES, DECKHAND_API_KEYS: 'remote-key:remote-proj,other-key:other-proj' });
    try {
      const connection = await connectStdio('legacy', ['--keepAlive'], { ...ENV, DECKHAND_API_URL: remote.url, DECKHAND_API_KEY: 'remote-key' });
      const id = ((await connection.client.callTool({ name: 'start', arguments: {} })).structuredContent as { sessionId: string }).sessionId;
      await connection.client.callTool({ name: 'navigate', arguments: { url: fixtures.url('mcp-probe.html') } });
      const extracted = await connection.client.callTool({ name: 'extract', arguments: {} });
      expect(text(extracted)).toContain('viewport 1024x768');
      const record = (key: string) => fetch(`${remote.url}/v1/sessions/${id}`, { headers: { 'x-bb-api-key': key } }).then((r) => r.status);
      expect(await record('remote-key')).toBe(200);
      expect(await record('other-key')).toBe(404);
      await connection.close();
      // --keepAlive travelled as the query parameter: the remote session outlives the stdio run.
      expect(await record('remote-key')).toBe(200);
    } finally {
      await remote.close();
    }
  }, 60_000);

  it('answers a request the remote refuses instead of leaving the client waiting', async () => {
    const remote = await startTestServer({ DECKHAND_API_KEYS: 'remote-key:remote-proj' });
    try {
      await expect(connectStdio('legacy', [], { ...ENV, DECKHAND_API_URL: remote.url, DECKHAND_API_KEY: 'wrong-key' })).rejects.toThrow(/401|Unknown API key/);
    } finally {
      await remote.close();
    }
  });
});
