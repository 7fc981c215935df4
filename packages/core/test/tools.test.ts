// The page tools, run as an MCP call runs them: each in a turn of its own on a real session, recorded
// under its name, with its input checked by its own schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../src/session/session.js';
import { PAGE_TOOLS, actTool, extractTool, navigateTool, observeTool } from '../src/tools/page-tools.js';
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

describe('page tools', () => {
  it('declare a name, one sentence, an input schema and whether they only read', () => {
    expect(PAGE_TOOLS.map((tool) => [tool.name, tool.readOnly])).toEqual([
      ['navigate', false],
      ['act', false],
      ['observe', true],
      ['extract', true],
    ]);
    for (const tool of PAGE_TOOLS) expect(tool.description).toMatch(/^[A-Z].*\.$/);
    expect(actTool.input.safeParse({ action: '' }).success).toBe(false);
    expect(navigateTool.input.safeParse({}).success).toBe(false);
  });

  it('navigate, observe, act and extract through the session, each recorded under its name', async () => {
    const navigated = await session.runTool(navigateTool, { url: fixtures.url('/forms.html') }, opContext());
    expect(navigated?.response.status).toBe(200);
    const found = await session.runTool(observeTool, { instruction: 'the Go button' }, opContext());
    expect(found[0]).toMatchObject({ method: 'click', description: expect.stringContaining('Go') });
    const acted = await session.runTool(actTool, { action: 'click the Go button' }, opContext());
    expect(acted.success).toBe(true);
    expect(await textOf(session, '#log')).toBe('clicked: go');
    expect(await session.runTool(extractTool, {}, opContext())).toMatchObject({ pageText: expect.stringContaining('Sign up') });
    const methods = session.replay().pages.flatMap((page) => page.actions.map((action) => action.method));
    expect(methods.slice(0, 4)).toEqual(['navigate', 'observe', 'act', 'extract']);
  });
});
