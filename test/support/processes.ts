// Process facts about a session's browser, read through its CDP endpoint. Liveness is core's own
// check (a zombie awaiting its reaper counts as gone).
import { chromium } from 'playwright-core';

export { isRunning } from '../../packages/core/src/browser/process-tree';

/** Pids of the browser and its child processes (renderers, GPU, utility). */
export async function browserPids(cdpUrl: string): Promise<number[]> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ id: number }> };
    return processInfo.map((p) => p.id);
  } finally {
    await browser.close();
  }
}
