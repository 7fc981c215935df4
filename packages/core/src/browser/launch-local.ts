// Launches one Chromium per session: a browser process per session is the hard isolation boundary.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import type { CoreConfig } from '../config.js';
import { SHADOW_HOOK_SCRIPT } from '../dom/shadow-hook.js';
import { DeckhandError } from '../errors.js';
import type { LaunchOptions, Viewport } from '../types.js';
import type { BrowserHandle } from './browser-handle.js';
import { buildChromiumArgs } from './chromium-args.js';
import { findChromium, isFullChromium } from './chromium-path.js';
import { readBrowserWsUrl } from './devtools-port.js';
import { findBrowserPid, isRunning, processTree } from './process-tree.js';

export async function launchLocalBrowser(
  options: LaunchOptions,
  viewport: Viewport,
  config: CoreConfig,
): Promise<BrowserHandle> {
  const headless = options.headless ?? config.headless;
  const executablePath = options.executablePath ?? findChromium(headless, config.chromiumPath);
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'deckhand-profile-')));
  const removeProfile = !options.userDataDir && !options.preserveUserDataDir;
  // A reused profile may hold the port file of an earlier run; we must read this run's port.
  await rm(join(userDataDir, 'DevToolsActivePort'), { force: true });
  const { args, ignoreDefaultArgs } = buildChromiumArgs(options, isFullChromium(executablePath));

  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless,
      args,
      ignoreDefaultArgs,
      chromiumSandbox: options.chromiumSandbox ?? false,
      proxy: options.proxy,
      locale: options.locale,
      viewport,
      deviceScaleFactor: options.deviceScaleFactor,
      hasTouch: options.hasTouch,
      ignoreHTTPSErrors: options.ignoreHTTPSErrors,
      downloadsPath: options.downloadsPath,
      acceptDownloads: options.acceptDownloads,
      timeout: options.connectTimeoutMs ?? 30_000,
    });
  } catch (error) {
    if (removeProfile) await rm(userDataDir, { recursive: true, force: true });
    throw new DeckhandError('browser_unavailable', 'Chromium failed to launch (the detail is in the server log)', undefined, { cause: error });
  }

  const pid = findBrowserPid(userDataDir);
  try {
    await context.addInitScript(SHADOW_HOOK_SCRIPT);
    const cdpUrl = await readBrowserWsUrl(userDataDir);
    return {
      context,
      cdpUrl,
      pid,
      isConnected: () => context.browser()?.isConnected() ?? false,
      onLost: (listener) => context.on('close', listener),
      close: async () => {
        const tree = pid === undefined ? [] : processTree(pid);
        await context.close().catch(() => undefined);
        // Playwright waits for the browser process; stragglers of its tree must not outlive the session.
        for (const child of tree) if (isRunning(child)) killQuietly(child);
        if (removeProfile) await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context.close().catch(() => undefined);
    if (removeProfile) await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
