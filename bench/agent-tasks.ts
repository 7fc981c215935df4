// Prints the agent task score (test/grounding/agent-tasks.ts): every task (and trap) run through the
// HTTP API with the offline agent and judged by what its page recorded. Run: npx tsx bench/agent-tasks.ts [filter] [--steps]
// (filter: a substring of category, page, instruction, or "held" / "fresh")
import { TASKS, TRAPS } from '../test/grounding/agent-tasks.js';
import { openTaskRun, taskTable, type TaskOutcome } from '../test/grounding/agent-tasks-run.js';

const args = process.argv.slice(2);
const filter = args.find((a) => !a.startsWith('--')) ?? '';
const run = await openTaskRun();
const outcomes: TaskOutcome[] = [];
try {
  const tags = (t: (typeof TASKS)[number]) => `${t.category} ${t.page} ${t.instruction}${t.heldOut ? ' held' : ''}${t.fresh ? ' fresh' : ''}`;
  for (const task of [...TASKS, ...TRAPS].filter((t) => tags(t).includes(filter))) {
    const outcome = await run.run(task);
    outcomes.push(outcome);
    if (args.includes('--steps')) console.log(`${outcome.verdict.padEnd(9)} ${task.page}: ${task.instruction}\n    ${outcome.steps.join('\n    ')}`);
  }
} finally {
  await run.close();
}
console.log(taskTable(outcomes));
