// The tools beyond the spec's six, over stdio (deckhand-mcp) and the hosted /mcp: the groups a client
// chooses (--caps / ?caps=), what each result says about the page, a screenshot as image content,
// `start`'s live-view link, a page tool after `end`, and messages in MCP's own terms.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { connectHttp, connectStdio, runBin, text, type Connection } from './mcp-clients';

const KEY = 'mcp-groups-key';
const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-mcp-groups-'));
// Passable (not listable) by a browser that runs as its own user, as the server makes its data directory.
chmodSync(dataDir, 0o711);
const LOCAL_ENV = { ...ALLOW_FIXTURES, DECKHAND_DATA_DIR: dataDir, DECKHAND_CACHE_DIR: '', DECKHAND_POOL_SIZE: '0' };
const SIX = ['act', 'end', 'extract', 'navigate', 'observe', 'start'];

let fixtures: FixtureServer;
let hosted: TestServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  hosted = await startTestServer({ ...ALLOW_FIXTURES, DECKHAND_API_KEYS: `${KEY}:proj-groups`, DECKHAND_POOL_SIZE: '0', DECKHAND_DATA_DIR: dataDir });
  // A file in each project's data directory: the binary's (local) and the key's (proj-groups).
  for (const project of ['local', 'proj-groups']) {
    mkdirSync(join(dataDir, project), { recursive: true });
    writeFileSync(join(dataDir, project, 'note.txt'), 'hello');
    writeFileSync(join(dataDir, project, 'other.txt'), 'world');
    mkdirSync(join(dataDir, project, 'folder'), { recursive: true });
  }
});

afterAll(async () => {
  await hosted?.close();
  await fixtures?.close();
});

/** The client's choices, as the binary's flags or the hosted endpoint's query. */
interface Choice {
  caps?: string;
  autoStart?: boolean;
}

interface Target {
  name: string;
  connect(choice?: Choice): Promise<Connection>;
  hasLiveView: boolean;
}

const targets: Target[] = [
  {
    name: 'stdio',
    hasLiveView: false,
    connect: ({ caps, autoStart } = {}) => connectStdio('legacy', [...(caps ? ['--caps', caps] : []), ...(autoStart ? ['--autoStart'] : [])], LOCAL_ENV),
  },
  {
    name: 'hosted /mcp',
    hasLiveView: true,
    connect: ({ caps, autoStart } = {}) => {
      const query = new URLSearchParams({ ...(caps && { caps }), ...(autoStart && { autoStart: 'true' }) });
      return connectHttp(`${hosted.url}/mcp?${query}`, 'legacy', { authorization: `Bearer ${KEY}` });
    },
  },
];

async function withConnection(target: Target, choice: Choice, run: (connection: Connection) => Promise<void>): Promise<void> {
  const connection = await target.connect(choice);
  try {
    await run(connection);
  } finally {
    await connection.client.callTool({ name: 'end', arguments: {} }).catch(() => undefined);
    await connection.close();
  }
}

const names = async (connection: Connection) => (await connection.client.listTools()).tools.map((tool) => tool.name).sort();

describe.each(targets)('MCP tool groups over $name', { timeout: 90_000 }, (target) => {
  it('serves the six plus the read tools by default, only the six with caps core, every group with all', async () => {
    await withConnection(target, {}, async (connection) => {
      expect(await names(connection)).toEqual([...SIX, 'outline', 'screenshot'].sort());
    });
    await withConnection(target, { caps: 'core' }, async (connection) => {
      expect(await names(connection)).toEqual(SIX);
    });
    await withConnection(target, { caps: 'all' }, async (connection) => {
      const all = await names(connection);
      for (const name of ['back', 'forward', 'reload', 'scroll', 'keys', 'wait', 'select', 'tabs', 'upload', 'dialog', 'click', 'outline', 'screenshot', ...SIX]) expect(all).toContain(name);
      // The agent's own tools are not an MCP client's.
      for (const name of ['think', 'done', 'fillForm', 'goto', 'navback']) expect(all).not.toContain(name);
      const { tools } = await connection.client.listTools();
      const back = tools.find((tool) => tool.name === 'back')!;
      expect(back.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: false });
    });
  });

  it('says what changed: navigate and act name the page after them, back and forward move through history', async () => {
    await withConnection(target, { caps: 'page' }, async ({ client }) => {
      const navigated = await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      expect(text(navigated)).toMatch(/HTTP 200.*"Forms"/);
      const acted = await client.callTool({ name: 'act', arguments: { action: 'click the Go to select link' } });
      expect(acted.isError).toBeFalsy();
      expect(text(acted)).toContain('select.html');
      const back = await client.callTool({ name: 'back', arguments: {} });
      expect(text(back)).toMatch(/^Went back\. .*forms\.html/);
      const forward = await client.callTool({ name: 'forward', arguments: {} });
      expect(text(forward)).toMatch(/^Went forward\. .*select\.html/);
      const reloaded = await client.callTool({ name: 'reload', arguments: {} });
      expect(text(reloaded)).toMatch(/^Reloaded\. .*select\.html/);
    });
  });

  it('select chooses an option by name; tabs lists, opens, chooses and closes tabs, and the page tools follow the chosen one', async () => {
    await withConnection(target, { caps: 'page,tabs' }, async ({ client }) => {
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('select.html') } });
      const selected = await client.callTool({ name: 'select', arguments: { field: 'the Color list', option: 'Green' } });
      expect(selected.isError, text(selected)).toBeFalsy();
      const log = await client.callTool({ name: 'extract', arguments: {} });
      expect(text(log)).toContain('selected: g');

      const opened = await client.callTool({ name: 'tabs', arguments: { action: 'new' } });
      expect((opened.structuredContent as { tabs: Array<{ active: boolean }> }).tabs.map((tab) => tab.active)).toEqual([false, true]);
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      const listed = await client.callTool({ name: 'tabs', arguments: { action: 'list' } });
      expect(text(listed)).toMatch(/^ {2}0: "Select" .*select\.html\n\* 1: "Forms" .*forms\.html$/);

      await client.callTool({ name: 'tabs', arguments: { action: 'select', index: 0 } });
      expect(text(await client.callTool({ name: 'extract', arguments: {} }))).toContain('selected: g');
      const missing = await client.callTool({ name: 'tabs', arguments: { action: 'select', index: 5 } });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatch(/no tab 5: 2 tab\(s\)/);

      const closed = await client.callTool({ name: 'tabs', arguments: { action: 'close' } });
      const left = (closed.structuredContent as { tabs: Array<{ url: string; active: boolean }> }).tabs;
      expect(left).toEqual([expect.objectContaining({ url: fixtures.url('forms.html'), active: true })]);
      expect(text(await client.callTool({ name: 'extract', arguments: {} }))).toContain('Sign up');
    });
  });

  it("upload puts a file of the project's data directory into the page's file field, and nothing from elsewhere", async () => {
    await withConnection(target, { caps: 'files' }, async ({ client }) => {
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('upload.html') } });
      const uploaded = await client.callTool({ name: 'upload', arguments: { files: ['note.txt'] } });
      expect(uploaded.isError, text(uploaded)).toBeFalsy();
      expect(text(await client.callTool({ name: 'extract', arguments: {} }))).toContain('chose: note.txt 5');
      const named = await client.callTool({ name: 'upload', arguments: { files: ['note.txt'], field: 'Attachment' } });
      expect(named.isError, text(named)).toBeFalsy();
      const unlabelled = await client.callTool({ name: 'upload', arguments: { files: ['note.txt'], field: 'Passport scan' } });
      expect(text(unlabelled)).toMatch(/No file fields labelled "Passport scan"/);
      // A single field takes one file, and a folder is not a file: each refusal says why.
      const two = await client.callTool({ name: 'upload', arguments: { files: ['note.txt', 'other.txt'] } });
      expect(two.isError, text(two)).toBe(true);
      expect(text(two)).toMatch(/takes one file.*2 were given/);
      const folder = await client.callTool({ name: 'upload', arguments: { files: ['folder'] } });
      expect(folder.isError, text(folder)).toBe(true);
      expect(text(folder)).toMatch(/"folder" is a directory/);
      // Another project's file is as far out of reach as the host's.
      const otherProject = target.name === 'stdio' ? 'proj-groups' : 'local';
      for (const outside of ['/etc/passwd', `../${otherProject}/note.txt`, 'missing.txt']) {
        const refused = await client.callTool({ name: 'upload', arguments: { files: [outside] } });
        expect(refused.isError, outside).toBe(true);
        expect(text(refused)).toMatch(/not a file in the project's data directory/);
      }
    });
  });

  it('upload refuses a file the field does not accept, and a disabled field, as act does', async () => {
    await withConnection(target, { caps: 'files' }, async ({ client }) => {
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('end-state.html') } });
      const png = await client.callTool({ name: 'upload', arguments: { files: ['note.txt'], field: 'Photo' } });
      expect(png.isError).toBe(true);
      expect(text(png)).toContain('The file field accepts only .png,image/png: "note.txt" is not one');
      const locked = await client.callTool({ name: 'upload', arguments: { files: ['note.txt'], field: 'Locked' } });
      expect(locked.isError).toBe(true);
      expect(text(locked)).toContain('The file field is disabled');
    });
  });

  it("dialog sets the answer to the page's next confirm or prompt, and says which dialogs opened since and how they were answered", async () => {
    await withConnection(target, { caps: 'dialogs' }, async (connection) => {
      const { client } = connection;
      expect(await names(connection)).toContain('dialog');
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('dialogs.html') } });
      const pageLog = async () => text(await client.callTool({ name: 'extract', arguments: {} }));
      // Nobody set an answer: the confirm is dismissed, as it always was, and act says so instead of success.
      const unanswered = await client.callTool({ name: 'act', arguments: { action: 'click Delete' } });
      expect(unanswered.isError).toBe(true);
      expect(text(unanswered)).toContain('the page asked a confirm "Delete report.pdf?" and it was dismissed (Cancel)');
      expect(await pageLog()).toContain('kept: report.pdf');

      const accepting = await client.callTool({ name: 'dialog', arguments: { action: 'accept' } });
      expect(accepting.isError, text(accepting)).toBeFalsy();
      expect(text(accepting)).toBe('The next dialog will be accepted.');
      await client.callTool({ name: 'act', arguments: { action: 'click Delete' } });
      expect(await pageLog()).toContain('deleted: report.pdf');

      const naming = await client.callTool({ name: 'dialog', arguments: { action: 'accept', promptText: 'Invoices' } });
      expect(text(naming)).toBe('The next dialog will be accepted with the text "Invoices". Since the last call: confirm "Delete report.pdf?" was accepted.');
      await client.callTool({ name: 'act', arguments: { action: 'click Rename folder' } });
      expect(await pageLog()).toContain('renamed to: Invoices');
      // The answer was for one dialog: the next alert is dismissed again.
      await client.callTool({ name: 'act', arguments: { action: 'click Save' } });
      expect(await pageLog()).toContain('alert closed');

      const dismissing = await client.callTool({ name: 'dialog', arguments: { action: 'dismiss' } });
      expect(dismissing.structuredContent).toEqual({
        next: 'dismiss',
        opened: [
          { type: 'prompt', message: 'New name for the folder', answer: 'accepted' },
          { type: 'alert', message: 'Saved', answer: 'dismissed' },
        ],
      });
      await client.callTool({ name: 'act', arguments: { action: 'click Rename folder' } });
      expect(await pageLog()).toContain('rename cancelled');
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'dialog')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    });
  });

  it('answers screenshot as image content and outline as the page outline', async () => {
    await withConnection(target, {}, async ({ client }) => {
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      const shot = await client.callTool({ name: 'screenshot', arguments: {} });
      const image = (shot.content as Array<{ type: string; data?: string; mimeType?: string }>).find((block) => block.type === 'image');
      expect(image?.mimeType).toBe('image/png');
      expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
      const outline = await client.callTool({ name: 'outline', arguments: {} });
      expect((outline.structuredContent as { outline: string }).outline).toMatch(/button.*Go/);
    });
  });

  it('start hands out the live-view link where the server has one', async () => {
    await withConnection(target, {}, async ({ client }) => {
      const started = await client.callTool({ name: 'start', arguments: {} });
      const { sessionId, liveViewUrl } = started.structuredContent as { sessionId: string; liveViewUrl?: string };
      if (!target.hasLiveView) {
        expect(liveViewUrl).toBeUndefined();
        return;
      }
      expect(liveViewUrl).toContain(sessionId);
      expect(text(started)).toContain(liveViewUrl);
      expect((await fetch(liveViewUrl!)).status).toBe(200);
    });
  });

  it('a page tool after end says to call start, unless the client chose autoStart', async () => {
    await withConnection(target, {}, async ({ client }) => {
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      await client.callTool({ name: 'end', arguments: {} });
      const after = await client.callTool({ name: 'act', arguments: { action: 'click Go' } });
      expect(after.isError).toBe(true);
      expect(text(after)).toMatch(/closed by end.*Call start/);
      await client.callTool({ name: 'start', arguments: {} });
      const navigated = await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      expect(navigated.isError).toBeFalsy();
    });
    await withConnection(target, { autoStart: true }, async ({ client }) => {
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      await client.callTool({ name: 'end', arguments: {} });
      const again = await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      expect(again.isError).toBeFalsy();
    });
  });

  it("an offline refusal names MCP's own model settings, not the HTTP API's", async () => {
    await withConnection(target, {}, async ({ client }) => {
      await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('forms.html') } });
      const refused = await client.callTool({ name: 'act', arguments: { action: 'reconcile the quarterly ledger with the bank' } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('modelName');
      expect(text(refused)).not.toContain('options.model');
    });
  });
});

describe('choosing groups badly', () => {
  it('the hosted /mcp refuses an unknown group with 400 naming caps', async () => {
    const response = await fetch(`${hosted.url}/mcp?caps=read,teleport`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/caps.*teleport/);
  });

  it('deckhand-mcp refuses an unknown --caps group and lists the groups in --help', async () => {
    const refused = await runBin(['--caps', 'teleport']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/--caps.*teleport/);
    const help = await runBin(['--help']);
    expect(help.out).toMatch(/--caps <groups>[\s\S]*dialogs, files, page,[\s\S]*read, tabs, vision/);
  });
});
