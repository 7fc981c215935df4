// Waits for a page to settle after an action: network quiet and DOM quiet in every frame, bounded.
import type { Frame, Page } from 'playwright-core';
import type { NetworkMonitor } from './network-monitor.js';

export interface SettleOptions {
  quietMs: number;
  timeoutMs: number;
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
  return networkQuiet && framesQuiet.every(Boolean);
}

/** No DOM mutation in the frame for quietMs. A frame that detaches or navigates meanwhile counts as quiet. */
function domQuiet(frame: Frame, quietMs: number, maxMs: number): Promise<boolean> {
  return frame
    .evaluate(
      ({ quiet, max }) =>
        new Promise<boolean>((resolve) => {
          const start = performance.now();
          let last = start;
          const observer = new MutationObserver(() => {
            last = performance.now();
          });
          observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          const timer = setInterval(() => {
            const now = performance.now();
            if (now - last >= quiet || now - start >= max) {
              clearInterval(timer);
              observer.disconnect();
              resolve(now - last >= quiet);
            }
          }, 50);
        }),
      { quiet: quietMs, max: maxMs },
    )
    .catch(() => true);
}
