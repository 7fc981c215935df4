// Browsers launched ahead of need, so that a session start does not wait for Chromium. A pooled browser
// has never held a page: it leaves the pool for good when a project takes it (becoming that project's
// browser), and one older than the maximum age is closed and replaced. The pool refills in the
// background, one launch at a time (launches are CPU-heavy and the machine may be small).
import type { SharedBrowser } from './shared-browser.js';

/** After a failed background launch, the next try waits this long (a broken binary must not spin). */
const RETRY_AFTER_MS = 5_000;

interface Launch {
  readonly browser: Promise<SharedBrowser>;
  /** Handed out before it was ready: it goes to whoever took it, not into the pool. */
  taken: boolean;
}

export class WarmPool {
  readonly #ready: SharedBrowser[] = [];
  #launch?: Launch;
  #closed = false;
  #retry?: NodeJS.Timeout;
  readonly #ageCheck?: NodeJS.Timeout;

  constructor(
    private readonly launch: () => Promise<SharedBrowser>,
    private readonly size: number,
    private readonly maxAgeMs: number,
  ) {
    if (size <= 0) return;
    if (maxAgeMs > 0) {
      this.#ageCheck = setInterval(() => this.#retireOld(), Math.min(maxAgeMs, 60_000));
      this.#ageCheck.unref();
    }
    this.#refill();
  }

  /** An unused browser (ready, or the one being launched), or undefined when the pool is empty or off. */
  take(): Promise<SharedBrowser> | undefined {
    this.#retireOld();
    const ready = this.#ready.shift();
    if (ready) {
      this.#refill();
      return Promise.resolve(ready);
    }
    if (this.#launch && !this.#launch.taken) {
      this.#launch.taken = true;
      return this.#launch.browser;
    }
    return undefined;
  }

  /** Browsers ready to be taken, and one being launched for the pool (not yet promised to anyone). */
  stats(): { ready: number; launching: number } {
    return { ready: this.#ready.length, launching: this.#launch && !this.#launch.taken ? 1 : 0 };
  }

  /** Closes every pooled browser (and one being launched) and launches no more. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#ageCheck);
    clearTimeout(this.#retry);
    const launching = this.#launch && !this.#launch.taken ? this.#launch.browser.catch(() => undefined) : undefined;
    await Promise.all([...this.#ready.splice(0).map((browser) => browser.close()), launching?.then((browser) => browser?.close())]);
  }

  #refill(): void {
    if (this.#closed || this.#launch || this.#ready.length >= this.size) return;
    const launch: Launch = { browser: this.launch(), taken: false };
    this.#launch = launch;
    launch.browser.then(
      (browser) => {
        this.#launch = undefined;
        if (launch.taken) return this.#refill();
        if (this.#closed) return void browser.close();
        this.#ready.push(browser);
        this.#refill();
      },
      () => {
        this.#launch = undefined;
        if (this.#closed) return;
        this.#retry = setTimeout(() => this.#refill(), RETRY_AFTER_MS);
        this.#retry.unref();
      },
    );
  }

  #retireOld(): void {
    const now = Date.now();
    for (const browser of [...this.#ready]) {
      if (browser.alive && (this.maxAgeMs <= 0 || now - browser.launchedAt < this.maxAgeMs)) continue;
      this.#ready.splice(this.#ready.indexOf(browser), 1);
      void browser.close();
    }
    this.#refill();
  }
}
