// The plumbing of the batches judged by their pages (test/heldout, test/heldout-redteam, grounding's agent
// tasks): a real server with one builtin/offline session on a real Chromium, the batch's pages on loopback,
// and a separate DevTools client on the session's CDP relay that reads what a page recorded.
import { chromium, type Browser, type Page } from 'playwright-core';
import { httpDriver, type Driver, type Reply } from './drivers.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { startTestServer, type TestServer } from './test-server.js';

export interface EpisodeSession {
  api: Driver;
  /** The one session every episode runs in. */
  id: string;
  /** The session's page as the observer sees it (for reading what the page recorded). */
  view: Page;
  pages: FixtureServer;
  close(): Promise<void>;
}

export interface EpisodeSessionOptions {
  /** The directory of the batch's pages. */
  pagesDir: string;
  /** startSession's body besides the browser (modelName, enableCaching). */
  start: Record<string, unknown>;
  /** Runs once the session has started, before the observer connects (files sent to it). */
  prepare?: (api: Driver, id: string) => Promise<void>;
}

export async function openEpisodeSession({ pagesDir, start, prepare }: EpisodeSessionOptions): Promise<EpisodeSession> {
  const pages = await startFixtureServer(pagesDir);
  let server: TestServer | undefined;
  let observer: Browser | undefined;
  try {
    server = await startTestServer({ DECKHAND_LOG_LEVEL: 'warn' });
    const api = httpDriver(server.url);
    const started = await api.call('startSession', { body: { ...start, browser: { type: 'local', launchOptions: { headless: true } } } });
    if (started.status !== 200) throw new Error(`startSession: ${JSON.stringify(started.body)}`);
    const id = started.body.data.sessionId as string;
    await prepare?.(api, id);
    const record = await api.call('getBrowserSession', { id });
    observer = await chromium.connectOverCDP(record.body.connectUrl);
    const view = observer.contexts()[0]!.pages()[0]!;
    const [s, o] = [server, observer];
    return {
      api,
      id,
      view,
      pages,
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

/** Neither streamed nor answered from the act or agent cache: each episode is run afresh. */
export const NO_CACHE = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };

/** Loads `path` (a page of the batch, with any query) in the session, or throws. */
export async function loadPage(session: EpisodeSession, path: string): Promise<void> {
  const nav = await session.api.call('navigate', { id: session.id, body: { url: session.pages.url(path) } });
  if (nav.status !== 200) throw new Error(`navigate ${path}: ${JSON.stringify(nav.body)}`);
}

/** The reply's result (success and message), or undefined with the error as the message when the call failed. */
export function resultOf(reply: Reply): { success: boolean; message: string } {
  const result = reply.status === 200 ? (reply.body.data.result as { success: boolean; message: string }) : undefined;
  return { success: result?.success === true, message: result?.message ?? `${reply.status} ${JSON.stringify(reply.body?.error ?? reply.body)}` };
}
