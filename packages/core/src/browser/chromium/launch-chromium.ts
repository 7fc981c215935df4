// Starts one Chromium with DevTools over a pipe and Playwright connected to the mux in process, behind its own
// policy proxy. What runs inside it (the session's default context, or contexts of a project's shared
// browser) is the caller's business.
import { chown, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { CoreConfig } from '../../config.js';
import { DeckhandError } from '../../errors.js';
import type { LaunchOptions, Viewport } from '../../types.js';
import { buildChromiumArgs } from './chromium-args.js';
import { findChromium, isFullChromium } from './chromium-path.js';
import { spawnChromium } from './chromium-process.js';
import { CdpMux } from '../cdp/cdp-mux.js';
import { startPolicyProxy, type PolicyProxy } from '../../network/policy-proxy.js';
import { isRunning, processTree } from './process-tree.js';
import { makeTempDir } from './temp-dirs.js';

/** Client-chosen profiles in use by a live browser: two browsers on one profile corrupt it. */
const profilesInUse = new Set<string>();

export interface LaunchedChromium {
  readonly browser: Browser;
  readonly mux: CdpMux;
  readonly pid?: number;
  readonly policyProxy: PolicyProxy;
  /** Deckhand's directory for this browser (its temporary profile and its downloads), removed at close. */
  readonly runDir: string;
  /** Where Playwright has the browser save its downloads (named by guid): in runDir, or the client's downloadsPath. */
  readonly downloadsDir: string;
  /** Resolves when the process has exited, for whatever reason. */
  readonly exited: Promise<void>;
  /** Asks the browser to exit (profile flushed), then kills what is left of its tree and cleans up. */
  close(): Promise<void>;
}

export async function launchChromium(
  options: LaunchOptions,
  viewport: Viewport,
  config: CoreConfig,
  /** Without a startup page the browser opens no window (a shared browser's pages all live in contexts). */
  startupPage = true,
): Promise<LaunchedChromium> {
  const headless = options.headless ?? config.headless;
  const executablePath = options.executablePath ?? findChromium(headless, config.chromiumPath);
  if (options.userDataDir && profilesInUse.has(options.userDataDir)) {
    throw new DeckhandError('unprocessable', 'This userDataDir is in use by another live session; end it first or use another directory');
  }
  // Every connection of the browser goes through this proxy, which enforces the navigation policy.
  const policyProxy = await startPolicyProxy(config.navigationPolicy, options.proxy);
  const { user, sandbox } = config.browserIdentity;
  // The profile (unless the client chose one) and the downloads live here, writable by the browser's user only.
  const runDir = await makeTempDir('profile');
  const downloadsDir = options.downloadsPath ?? join(runDir, 'downloads');
  if (!options.downloadsPath) await mkdir(downloadsDir, { mode: 0o700 });
  if (user) for (const dir of [runDir, downloadsDir]) await chown(dir, user.uid, user.gid);
  const userDataDir = options.userDataDir ?? runDir;
  const keepRunDir = !options.userDataDir && options.preserveUserDataDir;
  profilesInUse.add(userDataDir);
  const args = buildChromiumArgs(options, {
    headless,
    fullChromium: isFullChromium(executablePath),
    userDataDir,
    viewport,
    proxyServer: policyProxy.url,
    startupPage,
    sandbox,
    pageHeapMb: config.pageHeapMb,
  });

  const chromiumProcess = spawnChromium(executablePath, args, user);
  const mux = new CdpMux(chromiumProcess.transport);
  const cleanUp = async (tree = chromiumProcess.pid === undefined ? [] : processTree(chromiumProcess.pid)) => {
    chromiumProcess.kill();
    for (const pid of tree) if (isRunning(pid)) killQuietly(pid);
    await chromiumProcess.exited;
    await policyProxy.close();
    if (!keepRunDir) await rm(runDir, { recursive: true, force: true });
    profilesInUse.delete(userDataDir);
  };

  let browser: Browser;
  try {
    // Playwright speaks to the mux as objects: no websocket between them, and each message is serialized
    // once, on the pipe (bench/results/server-cpu.md: what the websocket hop cost every act).
    const timeout = options.connectTimeoutMs ?? 30_000;
    const transport = await within(mux.openTransport(), timeout);
    browser = await chromium.connectOverCDP(transport, { timeout, isLocal: true, artifactsDir: downloadsDir });
  } catch (error) {
    await cleanUp();
    throw new DeckhandError('browser_unavailable', 'Chromium failed to launch (the detail is in the server log)', undefined, { cause: error });
  }
  let closed: Promise<void> | undefined;
  return {
    browser,
    mux,
    pid: chromiumProcess.pid,
    policyProxy,
    runDir,
    downloadsDir,
    exited: chromiumProcess.exited,
    close: () =>
      (closed ??= (async () => {
        // Its renderers must not outlive it: remember the tree before asking it to exit (profile flushed).
        const tree = chromiumProcess.pid === undefined ? [] : processTree(chromiumProcess.pid);
        mux.closeBrowser();
        await Promise.race([chromiumProcess.exited, new Promise((resolve) => setTimeout(resolve, 2_000))]);
        await browser.close().catch(() => undefined);
        await cleanUp(tree);
      })()),
  };
}

/** `promise`, or a rejection once `ms` have passed (a browser that never answers its first command). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`No answer from the browser in ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
