// Launches a Chromium of the session's own: a browser process per session is the hard isolation
// boundary, and launch options that change the browser process (a profile, switches, a proxy) need one.
// DevTools runs over a pipe only; Playwright and relayed clients reach it through the mux.
import type { CoreConfig } from '../../config.js';
import type { LaunchOptions, Viewport } from '../../types.js';
import type { BrowserHandle } from './browser-handle.js';
import { launchChromium, type LaunchedChromium } from '../chromium/launch-chromium.js';
import { SHADOW_HOOK_SCRIPT } from '../page-hooks/shadow-hook.js';

export async function launchLocalBrowser(
  options: LaunchOptions,
  viewport: Viewport,
  config: CoreConfig,
  /** Told of the browser once it runs (the project's disk quota counts its directory). */
  onLaunched: (launched: LaunchedChromium) => void = () => undefined,
): Promise<BrowserHandle> {
  const launched = await launchChromium(options, viewport, config);
  onLaunched(launched);
  const { browser, mux } = launched;
  try {
    const context = browser.contexts()[0]!;
    await context.addInitScript(SHADOW_HOOK_SCRIPT);
    if (context.pages().length === 0) await context.newPage();
    if (options.acceptDownloads === false) {
      const session = await browser.newBrowserCDPSession();
      await session.send('Browser.setDownloadBehavior', { behavior: 'deny' });
    }
    let closing = false;
    return {
      context,
      openCdp: () => mux.open(),
      pid: launched.pid,
      policyProxy: launched.policyProxy,
      isConnected: () => browser.isConnected(),
      onLost: (listener) => {
        void launched.exited.then(() => closing || listener());
      },
      close: async () => {
        closing = true;
        await launched.close();
      },
    };
  } catch (error) {
    await launched.close();
    throw error;
  }
}
