// The outside tester's red-team batch (79 pages, frozen as written): every instruction as an act and
// as an agentExecute with builtin/offline, judged by the page's own #result. It prints the totals and
// holds one line: success: true never without the task done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mode } from '../heldout/heldout-run.js';
import { openRedteamRun, redteamTable, REDTEAM_TASKS, type RedteamEpisode, type RedteamRun } from './redteam-run.js';

let run: RedteamRun;
const episodes: RedteamEpisode[] = [];

beforeAll(async () => {
  run = await openRedteamRun();
}, 120_000);
afterAll(async () => {
  console.log(redteamTable(episodes));
  await run?.close();
});

describe('the red-team batch with the built-in offline model', () => {
  const cases = REDTEAM_TASKS.flatMap((task) => (['act', 'agent'] as Mode[]).map((mode) => [`${mode} ${task.page}: ${task.instruction}`, task, mode] as const));
  it.each(cases)('%s', async (_name, task, mode) => {
    const episode = await run.run(task, mode);
    episodes.push(episode);
    expect(episode.outcome, `#result ${JSON.stringify(episode.result)}: ${episode.message}`).not.toBe('false success');
  });
});
