// Prints the grounding score (test/grounding): every case on its page, judged by what happened in the
// page. Run: npx tsx bench/grounding.ts [modelName] [page filter]
import { CASES } from '../test/grounding/cases.js';
import { openGroundingRun, type Outcome } from '../test/grounding/grounding-run.js';
import { scoreTable } from '../test/grounding/grounding-score.js';

const [model = 'builtin/offline', filter = ''] = process.argv.slice(2);
const run = await openGroundingRun(model);
const outcomes: Outcome[] = [];
try {
  for (const c of CASES.filter((c) => c.page.includes(filter))) outcomes.push(await run.run(c));
} finally {
  await run.close();
}
console.log(scoreTable(run.model, outcomes));
