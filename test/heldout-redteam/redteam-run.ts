// Runs the outside tester's red-team batch (pages/, tasks.json, frozen as they wrote them) through the
// public HTTP API: each instruction once as an `act` and once as an `agentExecute` with builtin/offline
// on a fresh load of its page, with report.pdf, a.pdf and b.pdf sent to the session first. The page's
// own `#result` text is read through a separate DevTools client and compared with the tester's
// expected text (null: the task cannot be done, so only a refusal is right).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Driver } from '../support/drivers.js';
import { loadPage, NO_CACHE, openEpisodeSession, resultOf, type EpisodeSession } from '../support/episode-session.js';
import { classify, type Mode, type Outcome } from '../heldout/heldout-run.js';
import TASKS from './tasks.json';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const FILES = ['report.pdf', 'a.pdf', 'b.pdf'];
const MODEL = 'builtin/offline';
/** The tester's pages poll their state into #result every 50 ms; they read it 400 ms after the reply. */
const SETTLE_MS = 400;

export interface RedteamTask {
  page: string;
  instruction: string;
  /** The #result text of the task done; null when the task cannot be done. */
  expected: string | null;
}
export const REDTEAM_TASKS: RedteamTask[] = TASKS;

export interface RedteamEpisode {
  task: RedteamTask;
  mode: Mode;
  outcome: Outcome;
  message: string;
  result: string;
}

export interface RedteamRun {
  run(task: RedteamTask, mode: Mode): Promise<RedteamEpisode>;
  close(): Promise<void>;
}

export async function openRedteamRun(): Promise<RedteamRun> {
  const session = await openEpisodeSession({ pagesDir: PAGES, start: { modelName: MODEL, enableCaching: false }, prepare: sendFiles });
  return { run: (task, mode) => runEpisode(session, task, mode), close: () => session.close() };
}

async function sendFiles(api: Driver, id: string): Promise<void> {
  for (const name of FILES) {
    const raw = new Uint8Array(readFileSync(new URL(`./files/${name}`, import.meta.url)));
    const sent = await api.call('uploadFile', { id, query: { name }, raw });
    if (sent.status !== 200) throw new Error(`uploadFile ${name}: ${JSON.stringify(sent.body)}`);
  }
}

async function runEpisode(session: EpisodeSession, task: RedteamTask, mode: Mode): Promise<RedteamEpisode> {
  const { api, id, view } = session;
  await loadPage(session, `${task.page}?mode=${mode}`);
  const reply =
    mode === 'act'
      ? await api.call('act', { id, body: { input: task.instruction, options: { model: MODEL } }, headers: NO_CACHE })
      : await api.call('agentExecute', { id, body: { agentConfig: { model: MODEL }, executeOptions: { instruction: task.instruction, maxSteps: 20 } }, headers: NO_CACHE });
  const { success, message } = resultOf(reply);
  await sleep(SETTLE_MS);
  const result = String(await view.evaluate("document.getElementById('result')?.textContent ?? ''").catch(() => ''));
  return { task, mode, outcome: classify(success, task.expected !== null && result === task.expected), message, result };
}

/** Totals per mode, then every false success with the reply and what the page held. */
export function redteamTable(episodes: RedteamEpisode[]): string {
  const lines = ['| mode | episodes | done | refused | false success |', '|---|---|---|---|---|'];
  for (const mode of ['act', 'agent'] as Mode[]) {
    const mine = episodes.filter((e) => e.mode === mode);
    const count = (outcome: Outcome) => mine.filter((e) => e.outcome === outcome).length;
    lines.push(`| ${mode} | ${mine.length} | ${count('done')} | ${count('refused')} | ${count('false success')} |`);
  }
  const claimed = episodes.filter((e) => e.outcome === 'false success');
  if (claimed.length) {
    lines.push('', 'False successes (the reply, then what the page held):', '');
    for (const e of claimed) lines.push(`- ${e.mode} ${e.task.page}: "${e.task.instruction}" answered "${e.message.slice(0, 160)}"; #result ${JSON.stringify(e.result)}`);
  }
  return lines.join('\n');
}
