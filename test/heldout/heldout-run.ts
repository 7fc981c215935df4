// Runs the held-out batch through the public HTTP API (a real server, one session on a real
// Chromium, the pages on loopback): each task once as an `act` and once as an `agentExecute`, on a
// freshly loaded page, both with builtin/offline. What the page recorded (window.__taskResult) is
// read through a separate DevTools client on the session's CDP relay, and compared with the reply.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPage, NO_CACHE, openEpisodeSession, resultOf, type EpisodeSession } from '../support/episode-session.js';
import type { HeldoutTask } from './tasks.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const MODEL = 'builtin/offline';

export type Mode = 'act' | 'agent';

/**
 * done: the call reported success and the page recorded done.
 * refused: the call reported success: false or an error (whatever the page recorded).
 * false success: the call reported success: true and the page did not record done.
 */
export type Outcome = 'done' | 'refused' | 'false success';

export interface Episode {
  task: HeldoutTask;
  mode: Mode;
  outcome: Outcome;
  success: boolean;
  message: string;
  /** What the page recorded it received. */
  got: unknown;
}

export interface HeldoutRun {
  run(task: HeldoutTask, mode: Mode): Promise<Episode>;
  close(): Promise<void>;
}

export function classify(success: boolean, pageDone: boolean): Outcome {
  if (!success) return 'refused';
  return pageDone ? 'done' : 'false success';
}

/** A run over the batch's pages, or over another directory of pages that record alike (editable/pages). */
export async function openHeldoutRun(pagesDir = PAGES): Promise<HeldoutRun> {
  const session = await openEpisodeSession({ pagesDir, start: { modelName: MODEL, enableCaching: false } });
  return { run: (task, mode) => runEpisode(session, task, mode), close: () => session.close() };
}

/**
 * A batch as a suite: each task as an act and as an agentExecute, over `pagesDir`. It prints the table and
 * holds one line only: success: true never without the task done (no score is asserted).
 */
export function heldoutSuite(title: string, tasks: HeldoutTask[], pagesDir?: string): void {
  let run: HeldoutRun;
  const episodes: Episode[] = [];
  beforeAll(async () => {
    run = await openHeldoutRun(pagesDir);
  }, 120_000);
  afterAll(async () => {
    console.log(heldoutTable(episodes));
    await run?.close();
  });
  describe(title, () => {
    const cases = tasks.flatMap((task) => (['act', 'agent'] as Mode[]).map((mode) => [`${mode} ${task.page}: ${task.instruction}`, task, mode] as const));
    it.each(cases)('%s', async (_name, task, mode) => {
      const episode = await run.run(task, mode);
      episodes.push(episode);
      expect(episode.outcome, `got ${JSON.stringify(episode.got)}: ${episode.message}`).not.toBe('false success');
    });
  });
}

async function runEpisode(session: EpisodeSession, task: HeldoutTask, mode: Mode): Promise<Episode> {
  const { api, id, view } = session;
  // The mode in the query makes each episode a new load of the page, never the state the other left.
  await loadPage(session, `${task.page}?mode=${mode}`);
  const reply =
    mode === 'act'
      ? await api.call('act', { id, body: { input: task.instruction, options: { model: MODEL } }, headers: NO_CACHE })
      : await api.call('agentExecute', { id, body: { agentConfig: { model: MODEL }, executeOptions: { instruction: task.instruction } }, headers: NO_CACHE });
  const { success, message } = resultOf(reply);
  // A page that is no longer the task page (a link followed away) recorded nothing.
  const recorded = (await view.evaluate('window.__taskResult ?? null').catch(() => null)) as { done?: boolean; got?: unknown } | null;
  return { task, mode, outcome: classify(success, recorded?.done === true), success, message, got: recorded?.got ?? null };
}

const OUTCOMES: Outcome[] = ['done', 'refused', 'false success'];

export function totals(episodes: Episode[], mode: Mode): Record<Outcome, number> {
  const mine = episodes.filter((e) => e.mode === mode);
  return Object.fromEntries(OUTCOMES.map((o) => [o, mine.filter((e) => e.outcome === o).length])) as Record<Outcome, number>;
}

/** A markdown table: one row per task with both outcomes, the totals per mode, then every false success. */
export function heldoutTable(episodes: Episode[]): string {
  const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const show = (e?: Episode) => (e ? `${e.outcome}${e.outcome === 'done' ? '' : ` (got ${cell(JSON.stringify(e.got))})`}` : '–');
  const tasks = [...new Set(episodes.map((e) => e.task))];
  const lines = ['| class | page | instruction | act | agent |', '|---|---|---|---|---|'];
  for (const task of tasks) {
    const of = (mode: Mode) => episodes.find((e) => e.task === task && e.mode === mode);
    lines.push(`| ${task.class} | ${task.page} | ${cell(task.instruction)} | ${show(of('act'))} | ${show(of('agent'))} |`);
  }
  lines.push('', '| mode | episodes | done | refused | false success |', '|---|---|---|---|---|');
  for (const mode of ['act', 'agent'] as Mode[]) {
    const t = totals(episodes, mode);
    lines.push(`| ${mode} | ${episodes.filter((e) => e.mode === mode).length} | ${t.done} | ${t.refused} | ${t['false success']} |`);
  }
  const claimed = episodes.filter((e) => e.outcome === 'false success');
  if (claimed.length) {
    lines.push('', 'False successes (the reply, then what the page received):', '');
    for (const e of claimed) lines.push(`- ${e.mode} ${e.task.page}: "${e.task.instruction}" answered "${e.message.slice(0, 160)}"; the page got ${JSON.stringify(e.got)}`);
  }
  return lines.join('\n');
}
