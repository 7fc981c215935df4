// One MCP suite over every way in: stdio (a deckhand-mcp child), the binary's self-hosted Streamable
// HTTP, and the main server's hosted /mcp, each in both protocol revisions (2025-11-25 sessions and the
// stateless 2026-07-28), with the SDK's own client, real Chromium and the fixture pages.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { chromiumUnder, connectHttp, connectStdio, startSelfHosted, text, type Connection, type Era } from './mcp-clients';

const KEYS = { one: 'mcp-key-one', two: 'mcp-key-two' };
const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-mcp-'));
// No warm pool: its idle browser would count among the Chromium processes a closed session must leave none of.
const LOCAL_ENV = { ...ALLOW_FIXTURES, DECKHAND_DATA_DIR: dataDir, DECKHAND_CACHE_DIR: '', DECKHAND_MCP_IDLE_MS: '3000', DECKHAND_POOL_SIZE: '0' };

let fixtures: FixtureServer;
let hosted: TestServer;
let selfHosted: Awaited<ReturnType<typeof startSelfHosted>>;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  hosted = await startTestServer({ ...ALLOW_FIXTURES, DECKHAND_API_KEYS: `${KEYS.one}:proj-one,${KEYS.two}:proj-two`, DECKHAND_MCP_IDLE_MS: '3000', DECKHAND_POOL_SIZE: '0' });
  selfHosted = await startSelfHosted([], LOCAL_ENV);
});

afterAll(async () => {
  await selfHosted?.stop();
  await hosted?.close();
  await fixtures?.close();
});

const bearer = { authorization: `Bearer ${KEYS.one}` };

interface Target {
  name: string;
  era: Era;
  connect(): Promise<Connection & { pid?: number }>;
  /** The process whose Chromium children the browser sessions are. */
  rootPid(connection: { pid?: number }): number;
}

const targets: Target[] = (['legacy', 'modern'] as const).flatMap((era) => [
  { name: `stdio ${era}`, era, connect: () => connectStdio(era, [], LOCAL_ENV), rootPid: (c: { pid?: number }) => c.pid! },
  { name: `self-hosted HTTP ${era}`, era, connect: () => connectHttp(selfHosted.url, era), rootPid: () => selfHosted.child.pid! },
  { name: `hosted /mcp ${era}`, era, connect: () => connectHttp(`${hosted.url}/mcp`, era, bearer), rootPid: () => process.pid },
]);

// A stdio target starts the binary (TypeScript through tsx) for each connection: slow on a loaded machine.
describe.each(targets)('MCP over $name', { timeout: 90_000 }, (target) => {
  it("lists the spec's six tools with their schemas and annotations (and, by default, the read tools)", async () => {
    const connection = await target.connect();
    try {
      const { tools } = await connection.client.listTools();
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      expect(Object.keys(byName).sort()).toEqual(['act', 'end', 'extract', 'navigate', 'observe', 'outline', 'screenshot', 'start']);
      expect(byName.navigate!.inputSchema).toMatchObject({ type: 'object', properties: { url: { type: 'string' } }, required: ['url'] });
      expect(byName.act!.inputSchema).toMatchObject({ properties: { action: { type: 'string' } }, required: ['action'] });
      expect(byName.observe!.inputSchema).toMatchObject({ properties: { instruction: { type: 'string' } }, required: ['instruction'] });
      expect(byName.extract!.inputSchema.required ?? []).toEqual([]);
      expect(Object.keys(byName.extract!.inputSchema.properties ?? {})).toEqual(['instruction']);
      expect(Object.keys(byName.start!.inputSchema.properties ?? {})).toEqual(['sessionId']);
      expect(Object.keys(byName.end!.inputSchema.properties ?? {})).toEqual([]);
      for (const name of ['observe', 'extract', 'start']) expect(byName[name]!.outputSchema, name).toBeDefined();
      expect(byName.observe!.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.extract!.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.navigate!.annotations).toMatchObject({ openWorldHint: true, readOnlyHint: false });
    } finally {
      await connection.close();
    }
  });

  it('runs start → navigate → observe → act → extract → end, reporting progress', async () => {
    const connection = await target.connect();
    const { client } = connection;
    try {
      const started = await client.callTool({ name: 'start', arguments: {} });
      const sessionId = (started.structuredContent as { sessionId: string }).sessionId;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

      const progress: number[] = [];
      const navigated = await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } }, { onprogress: (p) => progress.push(p.progress) });
      expect(navigated.isError).toBeFalsy();
      expect(text(navigated)).toContain('forms.html');
      // Progress travels only where the transport can stream it (a 2026-07-28 exchange upgrades to SSE for it).
      // The last notification ("done") is sent just before the result; over stdio the SDK client may
      // settle the call first and then drop it (its progress handler is gone), so it is not required.
      await expect.poll(() => progress.slice(0, 2)).toEqual([0, 1]);
      expect([[0, 1], [0, 1, 2]]).toContainEqual(progress);

      const observed = await client.callTool({ name: 'observe', arguments: { instruction: 'the Go button' } });
      const elements = (observed.structuredContent as { elements: Array<{ description: string }> }).elements;
      expect(elements[0]!.description).toContain('Go');

      const acted = await client.callTool({ name: 'act', arguments: { action: 'click Go' } });
      expect(acted.isError).toBeFalsy();

      const extracted = await client.callTool({ name: 'extract', arguments: {} });
      expect((extracted.structuredContent as { extraction: string }).extraction).toContain('clicked: go');

      const ended = await client.callTool({ name: 'end', arguments: {} });
      expect(text(ended)).toContain(sessionId);
      const again = await client.callTool({ name: 'end', arguments: {} });
      expect(text(again)).toContain('no active browser session');
    } finally {
      await connection.close();
    }
  });

  it('answers a failure as a tool result a model can act on', async () => {
    const connection = await target.connect();
    try {
      await connection.client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      const missing = await connection.client.callTool({ name: 'act', arguments: { action: 'click the Launch rocket button' } });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatch(/No element|Launch rocket/i);
      const unknown = await connection.client.callTool({ name: 'start', arguments: { sessionId: '00000000-0000-4000-8000-000000000000' } });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toMatch(/not found.*Call start/);
      await connection.client.callTool({ name: 'end', arguments: {} });
    } finally {
      await connection.close();
    }
  });

  it('leaves no Chromium once the MCP session closes', async () => {
    const connection = await target.connect();
    await connection.client.callTool({ name: 'navigate', arguments: { url: fixtures.url('index.html') } });
    const before = chromiumUnder(target.rootPid(connection));
    expect(before.length).toBeGreaterThan(0);
    await connection.close();
    // A 2026-07-28 client has no session to close: its browser goes when the MCP state idles out.
    await expect.poll(() => before.filter((pid) => chromiumUnder(target.rootPid(connection)).includes(pid)), { timeout: 15_000, interval: 250 }).toEqual([]);
  });
});
