// A Chromium that hosts sessions of one project as separate browser contexts (Target.createBrowserContext
// through Playwright's newContext): each context has its own cookies, storage and cache, and its own
// renderer processes; the browser process, its GPU-less utilities and the network service are shared.
// A session reaches only its own context through its cdpUrl (context-channel.ts).
import type { BrowserContext } from 'playwright-core';
import type { CoreConfig } from '../config.js';
import type { Viewport } from '../types.js';
import type { BrowserHandle } from './browser-handle.js';
import type { CdpChannel } from './cdp-mux.js';
import { contextChannel } from './context-channel.js';
import { launchChromium, type LaunchedChromium } from './launch-chromium.js';
import { SHADOW_HOOK_SCRIPT } from './shadow-hook.js';

/** The window size a shared browser starts with; each context sets its session's viewport. */
const WINDOW: Viewport = { width: 1024, height: 768 };

export interface ContextOptions {
  viewport: Viewport;
  acceptDownloads?: boolean;
}

export class SharedBrowser {
  readonly launchedAt = Date.now();
  #exited = false;

  private constructor(private readonly chromium: LaunchedChromium) {
    void chromium.exited.then(() => (this.#exited = true));
  }

  static async launch(config: CoreConfig): Promise<SharedBrowser> {
    return new SharedBrowser(await launchChromium({}, WINDOW, config, false));
  }

  get alive(): boolean {
    return !this.#exited && this.chromium.browser.isConnected();
  }

  /** Resolves when the browser process has exited (closed, crashed or killed). */
  get exited(): Promise<void> {
    return this.chromium.exited;
  }

  get pid(): number | undefined {
    return this.chromium.pid;
  }

  /** A new context with one page, as a session's browser; `released` runs once the session closes it. */
  async newSession(options: ContextOptions, released: () => Promise<void>): Promise<BrowserHandle> {
    const { browser, mux, exited, policyProxy, pid } = this.chromium;
    let context: BrowserContext | undefined;
    try {
      context = await browser.newContext({ viewport: options.viewport, acceptDownloads: options.acceptDownloads !== false });
      await context.addInitScript(SHADOW_HOOK_SCRIPT);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const { targetInfo } = await cdp.send('Target.getTargetInfo');
      await cdp.detach();
      const contextId = targetInfo.browserContextId!;
      const own = context;
      const channels = new Set<CdpChannel>();
      let closing = false;
      return {
        context: own,
        openCdp: async () => {
          const channel = contextChannel(await mux.open(), contextId);
          channels.add(channel);
          channel.onClose(() => channels.delete(channel));
          return channel;
        },
        pid,
        policyProxy,
        isConnected: () => browser.isConnected(),
        onLost: (listener) => {
          void exited.then(() => closing || listener());
        },
        close: async () => {
          if (closing) return;
          closing = true;
          for (const channel of [...channels]) channel.close();
          await own.close().catch(() => undefined);
          await released();
        },
      };
    } catch (error) {
      await context?.close().catch(() => undefined);
      await released();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.chromium.close();
  }
}
