// Launches one Chromium per session: a browser process per session is the hard isolation boundary.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import type { CoreConfig } from '../config.js';
import { SHADOW_HOOK_SCRIPT } from '../dom/shadow-hook.js';
import { DeckhandError, firstLine } from '../errors.js';
import type { LaunchOptions, Viewport } from '../types.js';
import type { BrowserHandle } from './browser-handle.js';
import { buildChromiumArgs } from './chromium-args.js';
import { findChromium, isFullChromium } from './chromium-path.js';
import { readBrowserWsUrl } from './devtools-port.js';
import { startPolicyProxy } from './policy-proxy.js';
import { findBrowserPid, isRunning, processTree } from './process-tree.js';
import { behindPolicyProxy } from './proxy-switches.js';

export async function launchLocalBrowser(
  options: LaunchOptions,
  viewport: Viewport,
  config: CoreConfig,
): Promise<BrowserHandle> {
  const headless = options.headless ?? config.headless;
  const executablePath = options.executablePath ?? findChromium(headless, config.chromiumPath);
  // Every connection of the browser goes through this proxy, which enforces the navigation policy.
  const policyProxy = await startPolicyProxy(config.navigationPolicy, options.proxy);
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'deckhand-profile-')));
  const removeProfile = !options.userDataDir && !options.preserveUserDataDir;
  // A reused profile may hold the port file of an earlier run; we must read this run's port.
  await rm(join(userDataDir, 'DevToolsActivePort'), { force: true });
  const { args, ignoreDefaultArgs } = behindPolicyProxy(buildChromiumArgs(options, isFullChromium(executablePath)), policyProxy.url);

  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless,
      args,
      ignoreDefaultArgs,
      chromiumSandbox: options.chromiumSandbox ?? false,
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
    await policyProxy.close();
    if (removeProfile) await rm(userDataDir, { recursive: true, force: true });
    throw new DeckhandError('browser_unavailable', `Chromium failed to launch: ${firstLine(error)}`);
  }

  const pid = findBrowserPid(userDataDir);
  try {
    await context.addInitScript(SHADOW_HOOK_SCRIPT);
    const cdpUrl = await readBrowserWsUrl(userDataDir);
    return {
      context,
      cdpUrl,
      pid,
      policyProxy,
      isConnected: () => context.browser()?.isConnected() ?? false,
      onLost: (listener) => context.on('close', listener),
      close: async () => {
        const tree = pid === undefined ? [] : processTree(pid);
        await context.close().catch(() => undefined);
        // Playwright waits for the browser process; stragglers of its tree must not outlive the session.
        for (const child of tree) if (isRunning(child)) killQuietly(child);
        if (removeProfile) await rm(userDataDir, { recursive: true, force: true });
        await policyProxy.close();
      },
    };
  } catch (error) {
    await context.close().catch(() => undefined);
    await policyProxy.close();
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
