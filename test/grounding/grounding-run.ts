// Runs grounding cases on a real session (real Chromium, the pages served on loopback) and judges
// each by what happened in the page, read by a separate DevTools client, never by the act's report.
import { chromium, type Browser, type Page } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { servePrivateCdp } from '../../packages/core/src/browser/cdp/cdp-websocket.js';
import { DEFAULT_CORE_CONFIG } from '../../packages/core/src/config.js';
import { createSessionManager } from '../../packages/core/src/session/session-manager.js';
import type { Session } from '../../packages/core/src/session/session.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import type { GroundingCase } from './cases.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));

/**
 * resolved: the act said it succeeded and the page shows exactly the expected effects.
 * refused: the act said it could not, and the page shows no effect.
 * wrong: anything else: another element acted on, another value typed, an effect missing after a
 * reported success, or a change made by an act that reported failure.
 */
export type Verdict = 'resolved' | 'refused' | 'wrong';

export interface Outcome {
  case: GroundingCase;
  verdict: Verdict;
  /** Effect lines the page recorded. */
  effects: string[];
  /** The act's own message. */
  message: string;
  /** What the act reported. */
  success: boolean;
}

export interface GroundingRun {
  model: string;
  run(c: GroundingCase): Promise<Outcome>;
  close(): Promise<void>;
}

export async function openGroundingRun(modelName = 'builtin/offline'): Promise<GroundingRun> {
  const pages: FixtureServer = await startFixtureServer(PAGES);
  const manager = createSessionManager({ ...DEFAULT_CORE_CONFIG, settleQuietMs: 100 });
  let observer: Browser | undefined;
  try {
    const session = await manager.start('grounding', { modelName, enableCaching: false, selfHeal: false });
    observer = await attach(session);
    const view = observer.contexts()[0]!.pages()[0]!;
    return {
      model: modelName,
      run: (c) => runCase(session, view, pages, c),
      close: async () => {
        await observer?.close();
        await manager.shutdown();
        await pages.close();
      },
    };
  } catch (error) {
    await observer?.close();
    await manager.shutdown();
    await pages.close();
    throw error;
  }
}

async function runCase(session: Session, view: Page, pages: FixtureServer, c: GroundingCase): Promise<Outcome> {
  const ctx = { signal: new AbortController().signal, log: () => undefined };
  await session.navigate({ url: pages.url(c.page) }, ctx);
  // What the page did while loading (an open <details> reports its toggle) is not the act's doing.
  await view.evaluate('window.__glog.length = 0');
  const result = await session.act({ input: c.instruction }, ctx);
  const lines = ((await view.evaluate('window.__glog ?? []')) as string[]) ?? [];
  const effects = collapseValues(lines);
  return { case: c, verdict: judge(c, result.success, effects), effects, message: result.message, success: result.success };
}

/** Typing fires one input event per key: a field's last value is what it holds. */
function collapseValues(lines: string[]): string[] {
  const lastValue = new Map<string, number>();
  lines.forEach((line, i) => {
    const field = /^value ([^=]+)=/.exec(line)?.[1];
    if (field !== undefined) lastValue.set(field, i);
  });
  return lines.filter((line, i) => {
    const field = /^value ([^=]+)=/.exec(line)?.[1];
    return field === undefined || lastValue.get(field) === i;
  });
}

/** Hovers and key presses happen on the way to most actions: they count only where a case expects one of their kind. */
const INCIDENTAL = ['hover ', 'key '];

export function judge(c: GroundingCase, success: boolean, effects: string[]): Verdict {
  const expected = c.effects ?? [];
  const counted = effects.filter((line) => {
    const kind = INCIDENTAL.find((prefix) => line.startsWith(prefix));
    return !kind || expected.some((e) => e.startsWith(kind));
  });
  if (counted.length === 0 && !success) return 'refused';
  const same = counted.length === new Set(counted).size && counted.length === expected.length && expected.every((e) => counted.includes(e));
  return success && same && expected.length > 0 ? 'resolved' : 'wrong';
}

async function attach(session: Session): Promise<Browser> {
  const endpoint = await servePrivateCdp(() => session.openCdp());
  const browser = await chromium.connectOverCDP(endpoint.url);
  browser.on('disconnected', () => void endpoint.close());
  return browser;
}
