// Runs the outside tester's red-team batch (pages/, tasks.json, frozen as they wrote them) through the
// public HTTP API: each instruction once as an `act` and once as an `agentExecute` with builtin/offline
// on a fresh load of its page, with report.pdf, a.pdf and b.pdf sent to the session first. The page's
// own `#result` text is read through a separate DevTools client and compared with the tester's
// expected text (null: the task cannot be done, so only a refusal is right).
import { chromium, type Browser, type Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { httpDriver, type Driver } from '../support/drivers.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
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
  const pages: FixtureServer = await startFixtureServer(PAGES);
  let server: TestServer | undefined;
  let observer: Browser | undefined;
  try {
    server = await startTestServer({ DECKHAND_LOG_LEVEL: 'warn' });
    const api = httpDriver(server.url);
    const started = await api.call('startSession', {
      body: { modelName: MODEL, enableCaching: false, browser: { type: 'local', launchOptions: { headless: true } } },
    });
    if (started.status !== 200) throw new Error(`startSession: ${JSON.stringify(started.body)}`);
    const id = started.body.data.sessionId as string;
    for (const name of FILES) {
      const raw = new Uint8Array(readFileSync(new URL(`./files/${name}`, import.meta.url)));
      const sent = await api.call('uploadFile', { id, query: { name }, raw });
      if (sent.status !== 200) throw new Error(`uploadFile ${name}: ${JSON.stringify(sent.body)}`);
    }
    const record = await api.call('getBrowserSession', { id });
    observer = await chromium.connectOverCDP(record.body.connectUrl);
    const view = observer.contexts()[0]!.pages()[0]!;
    const [s, o] = [server, observer];
    return {
      run: (task, mode) => runEpisode(api, id, view, pages, task, mode),
      close: async () => {
        await o.close().catch(() => {});
        await s.close();
        await pages.close();
      },
    };
  } catch (error) {
    await observer?.close().catch(() => {});
    await server?.close();
    await pages.close();
    throw error;
  }
}

const NO_CACHE = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };

async function runEpisode(api: Driver, id: string, view: Page, pages: FixtureServer, task: RedteamTask, mode: Mode): Promise<RedteamEpisode> {
  const nav = await api.call('navigate', { id, body: { url: pages.url(`${task.page}?mode=${mode}`) } });
  if (nav.status !== 200) throw new Error(`navigate ${task.page}: ${JSON.stringify(nav.body)}`);
  const reply =
    mode === 'act'
      ? await api.call('act', { id, body: { input: task.instruction, options: { model: MODEL } }, headers: NO_CACHE })
      : await api.call('agentExecute', { id, body: { agentConfig: { model: MODEL }, executeOptions: { instruction: task.instruction, maxSteps: 20 } }, headers: NO_CACHE });
  const answer = reply.status === 200 ? (reply.body.data.result as { success: boolean; message: string }) : undefined;
  const success = answer?.success === true;
  const message = answer?.message ?? `${reply.status} ${JSON.stringify(reply.body?.error ?? reply.body)}`;
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
