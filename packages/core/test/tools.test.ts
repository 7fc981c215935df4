// The tool declarations, run as an MCP call runs them: each in a turn of its own on a real session,
// recorded under its name, with its input checked by its own schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../src/session/session.js';
import { toolCatalog, toolNamed } from '../src/tools/catalog.js';
import type { Tool } from '../src/tools/tool.js';
import { opContext, startFixtureServer, testManager, textOf, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
let session: Session;
const manager = testManager();

beforeAll(async () => {
  fixtures = await startFixtureServer();
  session = await manager.start('p1', { modelName: 'builtin/offline' });
});
afterAll(async () => {
  await manager.shutdown();
  await fixtures.close();
});

const TOOLS = toolCatalog({});
const tool = (name: string) => toolNamed(TOOLS, name) as Tool<Tool['input'], any>;
const [navigateTool, actTool, observeTool, extractTool] = ['navigate', 'act', 'observe', 'extract'].map(tool) as [Tool, Tool, Tool, Tool];

describe('tool declarations', () => {
  it('declare a name, one sentence, an input schema, whether they only read, and their group', () => {
    const core = TOOLS.filter((t) => t.capability === 'core');
    expect(core.map((t) => [t.name, t.readOnly]).sort()).toEqual([
      ['act', false],
      ['extract', true],
      ['navigate', false],
      ['observe', true],
    ]);
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
    for (const t of TOOLS) expect(t.description, t.name).toMatch(/^[A-Z].*\.$/);
    // A name a capability had before still finds it (old agent-cache entries), but is never offered.
    expect(toolNamed(TOOLS, 'goto')).toBe(navigateTool);
    expect(toolNamed(TOOLS, 'navback')?.name).toBe('back');
    expect(actTool.input.safeParse({ action: '' }).success).toBe(false);
    expect(navigateTool.input.safeParse({}).success).toBe(false);
  });

  it('navigate, observe, act and extract through the session, each recorded under its name', async () => {
    const navigated = (await session.runTool(navigateTool, { url: fixtures.url('/forms.html') }, opContext())) as { status: number; url: string };
    expect(navigated).toMatchObject({ status: 200, url: fixtures.url('/forms.html') });
    const found = (await session.runTool(observeTool, { instruction: 'the Go button' }, opContext())) as { elements: unknown[] };
    expect(found.elements[0]).toMatchObject({ method: 'click', description: expect.stringContaining('Go') });
    const acted = (await session.runTool(actTool, { action: 'click the Go button' }, opContext())) as { success: boolean };
    expect(acted.success).toBe(true);
    expect(await textOf(session, '#log')).toBe('clicked: go');
    expect(await session.runTool(extractTool, {}, opContext())).toMatchObject({ pageText: expect.stringContaining('Sign up') });
    const methods = session.replay().pages.flatMap((page) => page.actions.map((action) => action.method));
    expect(methods.slice(0, 4)).toEqual(['navigate', 'observe', 'act', 'extract']);
  });
});
