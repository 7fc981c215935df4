// The offline agent on task pages: every task of agent-tasks.ts run through the HTTP API with
// builtin/offline and judged by what its page recorded. It prints the table per category and holds
// the line: no task ever done wrong while the agent reports success (nor anything committed that
// the task did not ask for), and no fewer tasks completed than the recorded floor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS, TRAPS } from './agent-tasks.js';
import { openTaskRun, scoreTasks, taskTable, type TaskOutcome, type TaskRun } from './agent-tasks-run.js';

/** Completed tasks measured on the whole set (docs/decisions.md, "Offline agent on task pages"); raised as the agent improves. */
const COMPLETED_FLOOR = 60;

let run: TaskRun;
const outcomes: TaskOutcome[] = [];

beforeAll(async () => {
  run = await openTaskRun('builtin/offline');
}, 120_000);
afterAll(() => run?.close());

describe('the offline agent on task pages', () => {
  it.each([...TASKS, ...TRAPS].map((t) => [`${t.refuse ? 'trap ' : ''}${t.page}: ${t.instruction}`, t] as const))('%s', async (_name, task) => {
    const outcome = await run.run(task);
    outcomes.push(outcome);
    expect(outcome.verdict, `commits [${outcome.commits.join('; ')}]: ${outcome.message}`).not.toBe('wrong');
  });

  it(`completes at least ${COMPLETED_FLOOR} of ${TASKS.length} tasks, none wrong, and refuses every trap`, () => {
    console.log(taskTable(outcomes));
    const score = scoreTasks(outcomes.filter((o) => !o.task.refuse));
    expect(score.tasks).toBe(TASKS.length);
    expect(scoreTasks(outcomes.filter((o) => o.task.refuse))).toMatchObject({ tasks: TRAPS.length, refused: TRAPS.length, wrong: 0 });
    expect(score.wrongWithSuccess).toBe(0);
    expect(score.wrong).toBe(0);
    expect(score.completed).toBeGreaterThanOrEqual(COMPLETED_FLOOR);
  });
});
