// Runs agent tasks through the public HTTP API (a real server, one session on a real Chromium, the
// task pages served on loopback): navigate, agentExecute with builtin/offline, then read what the
// page recorded through a separate DevTools client on the session's CDP relay. Never the agent's
// own report: it is compared with the page.
import { fileURLToPath } from 'node:url';
import { loadPage, NO_CACHE, openEpisodeSession, type EpisodeSession } from '../support/episode-session.js';
import type { AgentTask, Category } from './agent-tasks.js';

const PAGES = fileURLToPath(new URL('../fixtures/agent-tasks/', import.meta.url));

/**
 * completed: the agent said success and the page shows exactly the expected result.
 * refused: the agent said it could not, and nothing was committed that the task did not ask for
 *   (a stop after the first correct steps is honest).
 * wrong: success claimed without the expected result, or anything committed the task did not ask
 *   for (another item deleted, a form sent with other values), whatever the agent said.
 * A trap (a task the page cannot do) can only be refused, or wrong: success claimed, or anything committed
 *   but its correct first steps.
 */
export type TaskVerdict = 'completed' | 'refused' | 'wrong';

export interface TaskOutcome {
  task: AgentTask;
  verdict: TaskVerdict;
  success: boolean;
  message: string;
  commits: string[];
  view?: Record<string, string>;
  steps: string[];
}

export interface TaskRun {
  run(task: AgentTask): Promise<TaskOutcome>;
  close(): Promise<void>;
}

export async function openTaskRun(modelName = 'builtin/offline'): Promise<TaskRun> {
  const session = await openEpisodeSession({ pagesDir: PAGES, start: { modelName } });
  return { run: (task) => runTask(session, task), close: () => session.close() };
}

async function runTask(session: EpisodeSession, task: AgentTask): Promise<TaskOutcome> {
  const { api, id, view } = session;
  await loadPage(session, task.page);
  const reply = await api.call('agentExecute', { id, body: { agentConfig: {}, executeOptions: { instruction: task.instruction } }, headers: NO_CACHE });
  if (reply.status !== 200) throw new Error(`agentExecute "${task.instruction}": ${reply.status} ${JSON.stringify(reply.body)}`);
  const result = reply.body.data.result as { success: boolean; message: string; actions: Array<{ action?: string; instruction?: string; success?: boolean }> };
  const state = (await view.evaluate('({ commits: window.__commits ?? null, view: window.__view ? window.__view() : undefined })')) as {
    commits: string[] | null;
    view?: Record<string, string>;
  };
  // A page that is no longer the task page (the agent followed a link away) recorded nothing.
  const commits = state.commits ?? [];
  return {
    task,
    verdict: judgeTask(task, result.success, commits, state.view),
    success: result.success,
    message: result.message,
    commits,
    ...(state.view && { view: state.view }),
    steps: result.actions.map((a) => `${a.success ? '✓' : '✗'} ${a.instruction ?? ''} → ${a.action ?? ''}`),
  };
}

export function judgeTask(task: AgentTask, success: boolean, commits: string[], view?: Record<string, string>): TaskVerdict {
  const left = [...task.commits];
  for (const line of commits) {
    const at = left.indexOf(line);
    if (at < 0) return 'wrong';
    left.splice(at, 1);
  }
  if (task.refuse) return success ? 'wrong' : 'refused';
  const sameView = !task.view || Object.entries(task.view).every(([k, v]) => view?.[k] === v);
  const exact = left.length === 0 && commits.every((line, i) => line === task.commits[i]) && sameView;
  if (success) return exact ? 'completed' : 'wrong';
  return 'refused';
}

export interface TaskScore {
  tasks: number;
  completed: number;
  refused: number;
  wrong: number;
  /** Wrong with success claimed: the one outcome that must never happen. */
  wrongWithSuccess: number;
}

export function scoreTasks(outcomes: TaskOutcome[]): TaskScore {
  const count = (v: TaskVerdict) => outcomes.filter((o) => o.verdict === v).length;
  return {
    tasks: outcomes.length,
    completed: count('completed'),
    refused: count('refused'),
    wrong: count('wrong'),
    wrongWithSuccess: outcomes.filter((o) => o.verdict === 'wrong' && o.success).length,
  };
}

export function taskTable(outcomes: TaskOutcome[], verbose = true): string {
  const categories = [...new Set(outcomes.map((o) => o.task.category))] as Category[];
  const row = (name: string, list: TaskOutcome[]) => {
    const s = scoreTasks(list);
    return `  ${name.padEnd(14)} ${String(s.tasks).padStart(5)} ${String(s.completed).padStart(9)} ${String(s.refused).padStart(8)} ${String(s.wrong).padStart(6)} ${String(s.wrongWithSuccess).padStart(14)}`;
  };
  const held = outcomes.filter((o) => o.task.heldOut);
  const tasks = outcomes.filter((o) => !o.task.refuse);
  const lines = [
    `  ${'category'.padEnd(14)} ${'tasks'.padStart(5)} ${'completed'.padStart(9)} ${'refused'.padStart(8)} ${'wrong'.padStart(6)} ${'false success'.padStart(14)}`,
    ...categories.map((c) => row(c, outcomes.filter((o) => o.task.category === c))),
    row('all tasks', tasks),
    row('  held out', held),
    row('  fresh', tasks.filter((o) => o.task.fresh)),
    row('  the rest', tasks.filter((o) => !o.task.heldOut && !o.task.fresh)),
  ];
  if (verbose) {
    lines.push('', 'not completed:');
    for (const o of outcomes.filter((o) => (o.task.refuse ? o.verdict !== 'refused' : o.verdict !== 'completed'))) {
      const got = o.commits.length ? ` commits [${o.commits.join('; ')}]` : '';
      lines.push(`  ${o.verdict.padEnd(8)} ${o.task.heldOut ? '(held) ' : o.task.fresh ? '(fresh) ' : ''}${o.task.page}: "${o.task.instruction}"${got} — ${o.message.slice(0, 200)}`);
    }
  }
  return lines.join('\n');
}
