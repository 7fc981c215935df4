// Issue 18's held-out batch: every task run as an act and as an agentExecute with builtin/offline,
// judged by what its page recorded. It prints the table and holds one line only: success: true
// never without the task done (no score is asserted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldoutTable, openHeldoutRun, type Episode, type HeldoutRun, type Mode } from './heldout-run.js';
import { TASKS } from './tasks.js';

let run: HeldoutRun;
const episodes: Episode[] = [];

beforeAll(async () => {
  run = await openHeldoutRun();
}, 120_000);
afterAll(async () => {
  console.log(heldoutTable(episodes));
  await run?.close();
});

describe('the held-out batch with the built-in offline model', () => {
  const cases = TASKS.flatMap((task) => (['act', 'agent'] as Mode[]).map((mode) => [`${mode} ${task.page}: ${task.instruction}`, task, mode] as const));
  it.each(cases)('%s', async (_name, task, mode) => {
    const episode = await run.run(task, mode);
    episodes.push(episode);
    expect(episode.outcome, `got ${JSON.stringify(episode.got)}: ${episode.message}`).not.toBe('false success');
  });
});
