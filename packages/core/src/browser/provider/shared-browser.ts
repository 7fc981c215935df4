// A Chromium that hosts sessions of one project as separate browser contexts (Target.createBrowserContext
// through Playwright's newContext): each context has its own cookies, storage and cache, and its own
// renderer processes; the browser process, its utilities and the network service are shared. A session
// reaches only its own context through its cdpUrl (context-channel.ts).
import type { BrowserContext } from 'playwright-core';
import type { CoreConfig } from '../../config.js';
import type { Viewport } from '../../types.js';
import type { BrowserHandle } from './browser-handle.js';
import type { CdpChannel } from '../cdp/cdp-mux.js';
import { contextChannel } from '../cdp/context-channel.js';
import { launchChromium, type LaunchedChromium } from '../chromium/launch-chromium.js';
import { SHADOW_HOOK_SCRIPT } from '../page-hooks/shadow-hook.js';

/** A session's viewport when it names none; also the window size shared browsers start with. */
export const DEFAULT_VIEWPORT: Viewport = { width: 1024, height: 768 };

export interface ContextOptions {
  viewport: Viewport;
  acceptDownloads?: boolean;
}

/** A context with its one blank page, ready to be a session's. */
interface Prepared {
  context: BrowserContext;
  contextId: string;
}

export class SharedBrowser {
  readonly launchedAt = Date.now();
  #exited = false;
  /**
   * A context made ahead of the next session (default viewport, downloads accepted), so a start in a
   * browser that is already running costs no renderer start. It never held anything: the session that
   * takes it gets a fresh context.
   */
  #spare?: Promise<Prepared>;

  private constructor(readonly chromium: LaunchedChromium) {
    void chromium.exited.then(() => (this.#exited = true));
  }

  static async launch(config: CoreConfig): Promise<SharedBrowser> {
    return new SharedBrowser(await launchChromium({}, DEFAULT_VIEWPORT, config, false));
  }

  get alive(): boolean {
    return !this.#exited && this.chromium.browser.isConnected();
  }

  /** Resolves when the browser process has exited (closed, crashed or killed). */
  get exited(): Promise<void> {
    return this.chromium.exited;
  }

  /** Makes the spare context in the background, unless there is one. */
  prepareSpare(): void {
    if (this.#spare || !this.alive) return;
    const spare = this.#prepare({ viewport: DEFAULT_VIEWPORT });
    this.#spare = spare;
    spare.catch(() => {
      if (this.#spare === spare) this.#spare = undefined;
    });
  }

  /**
   * A context with one page, as a session's browser (the spare when it fits); `released` runs once the
   * session has closed it. With `spareAfter`, the next spare is made in the background.
   */
  async newSession(options: ContextOptions, released: () => Promise<void>, spareAfter: boolean): Promise<BrowserHandle> {
    const fitsSpare = options.acceptDownloads !== false && sameViewport(options.viewport, DEFAULT_VIEWPORT);
    const spare = fitsSpare ? this.#spare : undefined;
    if (spare) this.#spare = undefined;
    let prepared: Prepared;
    try {
      prepared = await (spare ?? this.#prepare(options)).catch(() => this.#prepare(options));
    } catch (error) {
      await released();
      throw error;
    } finally {
      if (spareAfter) this.prepareSpare();
    }
    return this.#handle(prepared, released);
  }

  close(): Promise<void> {
    return this.chromium.close();
  }

  async #prepare(options: ContextOptions): Promise<Prepared> {
    const context = await this.chromium.browser.newContext({ viewport: options.viewport, acceptDownloads: options.acceptDownloads !== false });
    try {
      await context.addInitScript(SHADOW_HOOK_SCRIPT);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const { targetInfo } = await cdp.send('Target.getTargetInfo');
      await cdp.detach();
      return { context, contextId: targetInfo.browserContextId! };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  #handle({ context, contextId }: Prepared, released: () => Promise<void>): BrowserHandle {
    const { browser, mux, exited, policyProxy, pid } = this.chromium;
    const channels = new Set<CdpChannel>();
    let closing = false;
    return {
      context,
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
        await context.close().catch(() => undefined);
        await released();
      },
    };
  }
}

function sameViewport(a: Viewport, b: Viewport): boolean {
  return a.width === b.width && a.height === b.height;
}
