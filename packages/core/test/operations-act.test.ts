// Model-driven act with the built-in offline model on the fixture pages: instructions resolved from a
// snapshot, run by the deterministic executor, reported as replayable Actions; honest failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../src/session/session.js';
import type { ActRequest } from '../src/types.js';
import { opContext, startFixtureServer, testManager, textOf, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
let session: Session;
const manager = testManager();

beforeAll(async () => {
  fixtures = await startFixtureServer();
  session = await manager.start('p1', { modelName: 'builtin/offline', enableCaching: false });
});
afterAll(async () => {
  await manager.shutdown();
  await fixtures.close();
});

const open = (path: string) => session.navigate({ url: fixtures.url(path) }, opContext());
const act = (input: string, extra: Omit<ActRequest, 'input'> = {}) => session.act({ input, ...extra }, opContext());

describe('act with an instruction (built-in model)', () => {
  it('fills a field and clicks a button, reporting xpath selectors and backend node ids', async () => {
    await open('/forms.html');
    const filled = await act('fill "Ada" into Name');
    expect(filled.success, filled.message).toBe(true);
    expect(filled.actions[0]).toMatchObject({ selector: expect.stringMatching(/^xpath=\/html\/body(\[1\])?\/form/), method: 'fill', arguments: ['Ada'] });
    expect(filled.actions[0]!.backendNodeId).toEqual(expect.any(Number));
    const clicked = await act('click Submit');
    expect(clicked.success, clicked.message).toBe(true);
    expect(await textOf(session, '#result')).toMatch(/^submitted: Ada \//);
  });

  it('says every step of a chain in its reply, and one value for two fields fills both', async () => {
    await open('/forms.html');
    const both = await act("type 'x@y.z' into the Name and Email fields");
    expect(both.success, both.message).toBe(true);
    expect(both.message).toMatch(/^Done 2 steps: .+; .+/);
    expect(both.actions.map((a) => a.arguments)).toEqual([['x@y.z'], ['x@y.z']]);
  });

  it('keeps %name% in the reported action and substitutes only at execution', async () => {
    await open('/forms.html');
    const secret = 'hunter2-correct-horse';
    const ctx = opContext();
    const typed = await session.act({ input: 'type %pw% into Password', options: { variables: { pw: { value: secret, description: 'password' } } } }, ctx);
    expect(typed.success, typed.message).toBe(true);
    expect(typed.actions[0]!.arguments).toEqual(['%pw%']);
    expect(JSON.stringify(typed)).not.toContain(secret);
    expect(JSON.stringify(ctx.lines)).not.toContain(secret);
    expect(JSON.stringify(session.replay())).not.toContain(secret);
  });

  it('presses a key on the page and goes back', async () => {
    await open('/forms.html');
    expect((await act('click the "Go to select" link')).success).toBe(true);
    const back = await act('go back');
    expect(back.success, back.message).toBe(true);
    expect(back.actions[0]!.method).toBe('goBack');
    expect((await act('press Enter in press keys here')).success).toBe(true);
    expect(await textOf(session, '#log')).toContain('key: Enter');
  });

  it('answers an instruction it cannot resolve with success:false and a reason', async () => {
    await open('/forms.html');
    const result = await act('click the Checkout button');
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/Checkout|no element|not find/i);
    expect(result.actions).toEqual([]);
  });

  it('records usage time for the operation', async () => {
    await open('/forms.html');
    await act('click Go');
    const last = session.replay().pages.flatMap((p) => p.actions).at(-1)!;
    expect(last.tokenUsage).toMatchObject({ inputTokens: 0, outputTokens: 0, timeMs: expect.any(Number) });
  });
});
