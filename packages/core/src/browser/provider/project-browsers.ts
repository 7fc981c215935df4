// The browsers sessions share, per project: a project's default-launch sessions go into its browser as
// contexts, up to a number per browser, then into another. Projects never share a browser (isolation
// between projects stays at the process level). A browser closes with its last session; a new one
// comes from the warm pool when it has one, else it is launched there and then.
import type { CoreConfig } from '../../config.js';
import type { BrowserHandle } from './browser-handle.js';
import type { ProjectDiskQuota } from '../project-data/project-disk-quota.js';
import { SharedBrowser, type ContextOptions } from './shared-browser.js';
import { WarmPool } from './warm-pool.js';

interface Entry {
  readonly browser: Promise<SharedBrowser>;
  /** Sessions in it, or on their way in. */
  sessions: number;
  /** Gone (crashed, or failed to launch): no new session goes in. */
  lost: boolean;
}

/** What the shared browsers hold now (a session of its own browser, launched or attached, is not counted here). */
export interface BrowserStats {
  /** Projects' shared browsers, launching or running. */
  sharedBrowsers: number;
  /** Sessions in them (each drives one context), or on their way in. */
  sharedContexts: number;
  /** Warm pool browsers ready, and being launched for it. */
  pool: { ready: number; launching: number };
}

export class ProjectBrowsers {
  readonly #projects = new Map<string, Entry[]>();
  readonly #pool: WarmPool;

  constructor(
    private readonly config: CoreConfig,
    private readonly disk: ProjectDiskQuota,
  ) {
    this.#pool = new WarmPool(
      async () => {
        const browser = await SharedBrowser.launch(config);
        browser.prepareSpare();
        return browser;
      },
      config.poolSize,
      config.poolMaxAgeMs,
    );
  }

  async open(projectId: string, options: ContextOptions): Promise<BrowserHandle> {
    const entries = this.#projects.get(projectId) ?? [];
    this.#projects.set(projectId, entries);
    let entry = entries.find((candidate) => !candidate.lost && candidate.sessions < this.config.contextsPerBrowser);
    if (!entry) {
      const created: Entry = { browser: this.#pool.take() ?? SharedBrowser.launch(this.config), sessions: 0, lost: false };
      created.browser.then(
        (browser) => {
          // A pooled browser is the project's from now on: its profile and downloads count toward its disk.
          this.disk.watch(projectId, browser.chromium);
          void browser.exited.then(() => (created.lost = true));
        },
        () => (created.lost = true),
      );
      entries.push(created);
      entry = created;
    }
    const chosen = entry;
    chosen.sessions++;
    let browser: SharedBrowser;
    try {
      browser = await chosen.browser;
    } catch (error) {
      await this.#release(projectId, chosen);
      throw error;
    }
    // A spare context for the project's next session, while the browser has room for one.
    return browser.newSession(options, () => this.#release(projectId, chosen), chosen.sessions < this.config.contextsPerBrowser);
  }

  stats(): BrowserStats {
    const entries = [...this.#projects.values()].flat().filter((entry) => !entry.lost);
    return { sharedBrowsers: entries.length, sharedContexts: entries.reduce((total, entry) => total + entry.sessions, 0), pool: this.#pool.stats() };
  }

  /** Closes every browser: the pool's, and any whose sessions are gone (server shutdown). */
  async close(): Promise<void> {
    const entries = [...this.#projects.values()].flat();
    this.#projects.clear();
    await Promise.all([this.#pool.close(), ...entries.map((entry) => entry.browser.then((browser) => browser.close(), () => undefined))]);
  }

  /** One session fewer; the last one out closes the browser (a used browser never goes back to the pool). */
  async #release(projectId: string, entry: Entry): Promise<void> {
    entry.sessions--;
    if (entry.sessions > 0) return;
    const entries = this.#projects.get(projectId);
    if (!entries?.includes(entry)) return;
    entries.splice(entries.indexOf(entry), 1);
    if (entries.length === 0) this.#projects.delete(projectId);
    await entry.browser.then((browser) => browser.close(), () => undefined);
  }
}
