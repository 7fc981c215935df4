// Waits for a page to settle after an action: network quiet and DOM quiet in every frame, bounded.
import type { Frame, Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp-session.js';
import { inPage } from '../selectors/index.js';
import { readFrame } from './frame-read.js';
import type { NetworkMonitor } from './network-monitor.js';

export interface SettleOptions {
  quietMs: number;
  timeoutMs: number;
  /** The context's tabs before the action: any other tab was opened by it. */
  tabsBefore: ReadonlySet<Page>;
}

/** True when the page went quiet, false when the bound ran out first (the caller carries on). */
export async function waitForSettle(page: Page, network: NetworkMonitor, options: SettleOptions): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  const remaining = () => Math.max(0, deadline - Date.now());
  const [networkQuiet, ...framesQuiet] = await Promise.all([
    network.waitForQuiet(options.quietMs, deadline),
    ...page.frames().map((frame) => domQuiet(frame, options.quietMs, remaining())),
  ]);
  // A navigation the action started must have produced a document before we report back.
  await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, remaining()) }).catch(() => undefined);
  // So must a tab it opened, and the session must have adopted it, so the next operation acts there.
  const opened = await waitForOpenedTabs(page, options.tabsBefore, Math.min(remaining(), ANNOUNCE_MAX_MS));
  await Promise.all(opened.map((tab) => tab.waitForLoadState('domcontentloaded', { timeout: Math.max(1, remaining()) }).catch(() => undefined)));
  return networkQuiet && framesQuiet.every(Boolean);
}

/** How long a tab the browser has opened may take to be announced by Playwright. */
const ANNOUNCE_MAX_MS = 2_000;

/**
 * The browser knows about a new tab before Playwright announces it (the context's 'page' event), so a
 * popup a click opened can still be missing from context.pages(). Count the browser's page targets in
 * this context and wait (bounded) until Playwright knows as many; return the tabs opened since tabsBefore.
 */
async function waitForOpenedTabs(page: Page, tabsBefore: ReadonlySet<Page>, maxMs: number): Promise<Page[]> {
  const context = page.context();
  try {
    const [{ targetInfo }, { targetInfos }] = await Promise.all([
      sendCdp<{ targetInfo: TargetInfo }>(page, 'Target.getTargetInfo'),
      sendCdp<{ targetInfos: TargetInfo[] }>(page, 'Target.getTargets'),
    ]);
    const tabs = targetInfos.filter((t) => t.type === 'page' && t.browserContextId === targetInfo.browserContextId).length;
    const until = Date.now() + maxMs;
    while (context.pages().length < tabs && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  } catch {
    // The page closed meanwhile: nothing more to wait for.
  }
  return context.pages().filter((tab) => !tabsBefore.has(tab));
}

interface TargetInfo {
  type: string;
  browserContextId?: string;
}

/**
 * No DOM mutation in the frame for quietMs, counting mutations inside open and closed shadow roots.
 * A frame that detaches or navigates meanwhile counts as quiet, and so does one that cannot be read
 * (frame-read.ts): there is nothing more to learn from it.
 */
function domQuiet(frame: Frame, quietMs: number, maxMs: number): Promise<boolean> {
  const watch = () => frame.evaluate(WATCH_MUTATIONS, { quiet: quietMs, max: maxMs });
  // The watch ends itself at maxMs; the bound only catches a frame whose thread never runs it.
  return readFrame(frame, watch, { boundMs: maxMs + WATCH_SLACK_MS }).then(
    (quiet) => quiet ?? true,
    () => true,
  );
}

const WATCH_SLACK_MS = 1_000;

const WATCH_MUTATIONS = inPage(
  ({ quiet, max }: { quiet: number; max: number }, lib) =>
    new Promise<boolean>((resolve) => {
      const start = performance.now();
      let last = start;
      const observer = new MutationObserver(() => {
        last = performance.now();
      });
      const watch = (root: Node) => {
        observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
        for (let el = walker.nextNode(); el; el = walker.nextNode()) {
          const shadow = lib.shadowRootOf(el as Element);
          if (shadow) watch(shadow);
        }
      };
      watch(document);
      const timer = setInterval(() => {
        const now = performance.now();
        if (now - last >= quiet || now - start >= max) {
          clearInterval(timer);
          observer.disconnect();
          resolve(now - last >= quiet);
        }
      }, 50);
    }),
);
