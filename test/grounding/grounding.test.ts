// The grounding suite: realistic instructions on pages of every common shape, each judged by what
// happened in the page. It prints the score and holds the line: no wrong element, ever, and at
// least 90% of the instructions that should act resolved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES } from './cases.js';
import { openGroundingRun, type GroundingRun, type Outcome } from './grounding-run.js';
import { score, scoreTable } from './grounding-score.js';

const FLOOR_PERCENT = 90;

let run: GroundingRun;
const outcomes: Outcome[] = [];

beforeAll(async () => {
  run = await openGroundingRun('builtin/offline');
});
afterAll(() => run?.close());

describe('grounding with the built-in offline model', () => {
  it.each(CASES.map((c) => [`${c.page}: ${c.instruction}`, c] as const))('%s', async (_name, c) => {
    const outcome = await run.run(c);
    outcomes.push(outcome);
    expect(outcome.verdict, `effects [${outcome.effects.join('; ')}]: ${outcome.message}`).not.toBe('wrong');
  });

  it(`scores at least ${FLOOR_PERCENT}% with no wrong element`, () => {
    console.log(scoreTable(run.model, outcomes));
    const result = score(outcomes);
    expect(result.cases).toBe(CASES.length);
    expect(result.falseSuccess).toBe(0);
    expect(result.wrong).toBe(0);
    expect(result.resolvedPercent).toBeGreaterThanOrEqual(FLOOR_PERCENT);
  });
});
