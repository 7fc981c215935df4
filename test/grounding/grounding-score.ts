// The grounding score: how many instructions that should act did the right thing, how many were
// refused honestly, how many went wrong, and whether the ones that should be refused were.
import type { Outcome } from './grounding-run.js';

export interface Score {
  cases: number;
  shouldAct: number;
  resolved: number;
  honestRefusals: number;
  shouldRefuse: number;
  refusedCorrectly: number;
  wrong: number;
  /** Wrong while the act said success: a clause claimed done and not done (issue 18). */
  falseSuccess: number;
  /** resolved / shouldAct, in percent. */
  resolvedPercent: number;
}

export function score(outcomes: Outcome[]): Score {
  const act = outcomes.filter((o) => o.case.effects);
  const refuse = outcomes.filter((o) => !o.case.effects);
  const resolved = act.filter((o) => o.verdict === 'resolved').length;
  return {
    cases: outcomes.length,
    shouldAct: act.length,
    resolved,
    honestRefusals: act.filter((o) => o.verdict === 'refused').length,
    shouldRefuse: refuse.length,
    refusedCorrectly: refuse.filter((o) => o.verdict === 'refused').length,
    wrong: outcomes.filter((o) => o.verdict === 'wrong').length,
    falseSuccess: outcomes.filter((o) => o.verdict === 'wrong' && o.success).length,
    resolvedPercent: act.length ? Math.round((resolved / act.length) * 1000) / 10 : 0,
  };
}

export function scoreTable(model: string, outcomes: Outcome[]): string {
  const s = score(outcomes);
  const pages = new Set(outcomes.map((o) => o.case.page)).size;
  const rows: Array<[string, string]> = [
    ['instructions that should act', `${s.shouldAct}`],
    ['  resolved (the page shows exactly the expected effect)', `${s.resolved} (${s.resolvedPercent}%)`],
    ['  honest refusals (no change, a reason given)', `${s.honestRefusals}`],
    ['instructions that should be refused', `${s.shouldRefuse}`],
    ['  refused', `${s.refusedCorrectly}`],
    ['wrong (another element or value, or a claimed success without the effect)', `${s.wrong}`],
    ['  of them claimed success without doing it', `${s.falseSuccess}`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = [`grounding: ${model}, ${s.cases} instructions on ${pages} pages`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)];
  const misses = outcomes.filter((o) => (o.case.effects ? o.verdict !== 'resolved' : o.verdict !== 'refused'));
  if (misses.length) {
    lines.push('', 'not resolved as expected:');
    for (const o of misses) {
      const got = o.effects.length ? ` effects [${o.effects.join('; ')}]` : '';
      lines.push(`  ${o.verdict.padEnd(8)} ${o.case.page}: "${o.case.instruction}"${got} — ${o.message.slice(0, 160)}`);
    }
  }
  return lines.join('\n');
}
