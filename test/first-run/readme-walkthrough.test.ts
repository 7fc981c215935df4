// The README's curl walk-through, run as written: its ```sh block under "Try it with curl", step by
// step with sh and curl against a real server (offline: the demo page is the server's own), each
// step's output checked against what the text says it does.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

const README = new URL('../../README.md', import.meta.url);
/** The address the README's commands are written for; the test server has its own port. */
const WRITTEN_FOR = 'http://127.0.0.1:3000';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface Step {
  /** The step's comment lines, which say what it does. */
  says: string;
  script: string;
}

/** The walk-through's steps: blank-line separated groups of the first ```sh block after the heading. */
async function walkthrough(): Promise<Step[]> {
  const text = await readFile(README, 'utf8');
  const section = text.slice(text.indexOf('## Try it with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('no ```sh block under "Try it with curl" in README.md');
  return block
    .trim()
    .split(/\n\s*\n/)
    .map((script) => ({ says: script.split('\n').filter((l) => l.startsWith('#')).join(' '), script }));
}

/** Runs all steps in one shell (they share $ID), printing a marker before each; returns each step's output. */
function run(steps: Step[]): Promise<string[]> {
  const script = steps.map((step, i) => `echo '@@step ${i}@@'\n${step.script.replaceAll(WRITTEN_FOR, server.url)}\necho`).join('\n');
  return new Promise((resolve, reject) => {
    execFile('sh', ['-e', '-c', script], { timeout: 120_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${error.message}\n${stderr}`));
      resolve(stdout.split(/@@step \d+@@\n/).slice(1).map((out) => out.trim()));
    });
  });
}

const json = (out: string) => JSON.parse(out) as { success: boolean; data: { result: any } & Record<string, any> };

/** What each step must show, found by what its comment says. */
const OUTCOMES: Array<[RegExp, (out: string) => void]> = [
  [/start a session/, (out) => expect(out).toBe('')],
  [/navigate to the demo page/, (out) => expect(json(out).data.result.response).toMatchObject({ url: `${server.url}/demo`, status: 200 })],
  [/structured action/, (out) => expect(json(out).data.result).toMatchObject({ success: true, actions: [{ selector: '#name', method: 'fill', arguments: ['Ada'] }] })],
  [/natural language/, (out) => expect(json(out).data.result).toMatchObject({ success: true, actions: [{ method: 'click', selector: expect.stringMatching(/^xpath=.*button/) }] })],
  [/observe/, (out) => expect(json(out).data.result).toEqual([expect.objectContaining({ method: 'click', description: expect.stringContaining('Learn more') })])],
  [
    /server-sent events/,
    (out) => {
      const events = out.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
      expect(events.at(-1)).toMatchObject({ type: 'system', data: { status: 'finished', result: { success: true } } });
    },
  ],
  [/extract the page text/, (out) => expect(json(out).data.result).toEqual({ pageText: 'Hello, Ada!' })],
  [
    /what happened/,
    (out) => {
      const methods = json(out).data.pages.flatMap((p: { actions: Array<{ method: string }> }) => p.actions.map((a) => a.method));
      expect(methods).toEqual(['navigate', 'act', 'act', 'observe', 'act', 'extract']);
    },
  ],
  [/end the session/, (out) => expect(JSON.parse(out)).toEqual({ success: true })],
];

describe("the README's curl walk-through", () => {
  it('works in order, offline, as written', async () => {
    const steps = await walkthrough();
    expect(steps.map((s) => s.says.length > 0)).not.toContain(false);
    const outputs = await run(steps);
    expect(outputs).toHaveLength(steps.length);
    const checked = new Set<number>();
    steps.forEach((step, i) => {
      const outcome = OUTCOMES.findIndex(([says]) => says.test(step.says));
      expect(outcome, `no expected outcome for the step "${step.says}"`).toBeGreaterThanOrEqual(0);
      checked.add(outcome);
      try {
        OUTCOMES[outcome]![1](outputs[i]!);
      } catch (error) {
        throw new Error(`README step "${step.says}" did not do what it says; its output was:\n${outputs[i]}\n${(error as Error).message}`);
      }
    });
    expect(checked.size).toBe(OUTCOMES.length);
  }, 120_000);
});
