// Settling after an action, in two parts (docs/decisions.md, "Settling after an action"). What the
// action set going (a tab it opened, its requests, a navigation's new document, the short timers,
// intervals and animation frames it scheduled) is followed from the moment it ran; the act answers
// once none of it is pending ("calm"). The DOM's last changes are the next read's to wait for
// ("done": calm, and the DOM quiet for quietMs). A client that reads at once waits as long as the page
// needs; one that thinks first waits nothing.
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { activityOf, firstLookOnInput, restartsOnInput, startWatch, type FirstLook, type FrameActivity } from './activity-watch.js';
import { NetworkMonitor } from './network-monitor.js';
import type { PressOutcome } from './press-watch.js';
import { followPageTargets, pageTargetsIn } from './page-targets.js';
import { handActionTab } from './action-tabs.js';

export interface SettleOptions {
  /** The DOM must have stopped changing this long (and nothing the action started be pending). */
  quietMs: number;
  /** Bound of the whole settle, from the action's end. */
  timeoutMs: number;
}

/** After the action's last request, the page gets this long to use what it brought before it counts as settled. */
const RESPONSE_GRACE_MS = 50;
/** How often the background settle looks at the page while something the action started is pending. */
const POLL_MS = 10;
/** How long a tab the browser has opened may take to be announced by Playwright. */
const ANNOUNCE_MAX_MS = 2_000;

/** The settle each session's browser context still owes its next operation. */
const unsettled = new WeakMap<BrowserContext, ActionSettle>();

/**
 * Waits (at most maxMs) until the last action in this context has settled. Every operation that reads
 * or acts on the page calls it first; it returns at once when nothing is owed. A read (`quiet`) also
 * waits for the DOM to stop changing; an Action, which waits for its own target anyway, only for what
 * the last action left pending. `signal` (the operation's deadline) ends the wait with its reason.
 */
export async function settledBeforeRead(
  context: BrowserContext,
  maxMs: number,
  { quiet = true, signal }: { quiet?: boolean; signal?: AbortSignal } = {},
): Promise<boolean> {
  const settle = unsettled.get(context);
  if (!settle) return true;
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const bound = new Promise<boolean>((resolve, reject) => {
    timer = setTimeout(() => resolve(false), maxMs);
    onAbort = () => reject(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([quiet ? settle.done : settle.calm, bound]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The log line of an operation that went ahead on a page the last action left unsettled. */
export const UNSETTLED_MESSAGE = 'the page did not settle after the last action before the bound; continuing';

/** Drops what the last action owes (a navigation replaces the page it was settling). */
export async function abandonSettle(context: BrowserContext): Promise<void> {
  await unsettled.get(context)?.stop();
}

export class ActionSettle {
  private readonly tabsBefore: ReadonlySet<Page>;
  private readonly network: NetworkMonitor;
  private stopped = false;
  /** Whether the settle ran to its end (settled or bound reached) rather than being stopped. */
  private ended = false;
  /** Ends the poll's current pause early. */
  private wake = () => {};
  private finished = Promise.resolve(true);
  private nothingPending = Promise.resolve(true);
  private cleaned: Promise<void> = Promise.resolve();
  /** The page pushes the first look (the action's input restarts the only watched frame's watch). */
  private firstLook?: FirstLook;
  /** How the action's press ended in each watched frame, as its first look after the action saw it. */
  private presses: Promise<Map<Frame, PressOutcome | undefined>>;
  private pressesSeen = (_seen: Map<Frame, PressOutcome | undefined>) => {};
  /** Since when the browser has had a tab Playwright has not announced. */
  private unannouncedSince?: number;

  private constructor(
    private readonly page: Page,
    /** Watched frames: the main frame first. */
    private readonly frames: Frame[],
    /** A previous action's settle was still running: what it was waiting for still counts. */
    private readonly tookOver: boolean,
  ) {
    this.tabsBefore = new Set(page.context().pages());
    this.network = new NetworkMonitor(page);
    this.presses = new Promise((resolve) => (this.pressesSeen = resolve));
  }

  /**
   * Starts watching before the action runs, in the page's main frame and the frame acted in; a
   * previous action's settle still running in this context is ended first (what it was waiting for
   * still counts). With `trustedInput` (the action begins with trusted pointer input in `frame`), a
   * frame whose watch the last settle armed is restarted by that input, with no evaluation first.
   */
  static async begin(page: Page, frame: Frame, { trustedInput = false } = {}): Promise<ActionSettle> {
    const frames = [...new Set([page.mainFrame(), frame])];
    const tookOver = (await unsettled.get(page.context())?.stop()) ?? false;
    const settle = new ActionSettle(page, frames, tookOver);
    const onInput = trustedInput && !tookOver && restartsOnInput(frame);
    if (onInput && frames.length === 1) settle.firstLook = firstLookOnInput(frame);
    // Following the browser's targets from before the action: afterwards, no round trip tells of a new tab.
    await Promise.all([...frames.map((watched) => (onInput && watched === frame ? undefined : startWatch(watched))), followPageTargets(page.context())]);
    return settle;
  }

  /** Watches (restarts now) the frame the target turned out to be in, when it is another one. */
  async watchAlso(frame: Frame): Promise<void> {
    if (this.frames.includes(frame)) return;
    this.frames.push(frame);
    this.dropFirstLook();
    await startWatch(frame);
  }

  /** Whether the page settled (false: the bound ran out first, or the page went away); never rejects. */
  get done(): Promise<boolean> {
    return this.finished;
  }

  /** How the action's trusted press ended in `frame` (press-watch.ts), once the first look has seen it; undefined when unknown. */
  async pressIn(frame: Frame): Promise<PressOutcome | undefined> {
    return (await this.presses).get(frame);
  }

  /** Like done, but without waiting for the DOM to stop changing. */
  get calm(): Promise<boolean> {
    return this.nothingPending;
  }

  /**
   * The action ran: waits until a tab it opened is announced, then follows the rest in the background
   * (see calm and done), owed to the context's next operation until it has settled. Each tab opened
   * until then (at once or later) is handed to the session as the action's (action-tabs.ts).
   */
  async actionDone(options: SettleOptions): Promise<void> {
    const opened = await waitForOpenedTabs(this.page, this.tabsBefore, Math.min(options.timeoutMs, ANNOUNCE_MAX_MS));
    unsettled.set(this.page.context(), this);
    let calmed = (_calm: boolean) => {};
    this.nothingPending = new Promise<boolean>((resolve) => (calmed = resolve));
    this.finished = this.follow(opened, options, calmed);
    void this.finished.then(calmed);
    this.cleaned = this.finished.then(() => this.forget());
  }

  /** The action did not run: nothing to follow. */
  cancel(): void {
    this.stopped = true;
    this.pressesSeen(new Map());
    this.dropFirstLook();
    this.forget();
  }

  /** Ends the background settle early; true when it had not ended by itself (a newer action takes it over). */
  async stop(): Promise<boolean> {
    this.stopped = true;
    this.wake();
    await this.cleaned;
    return !this.ended;
  }

  private async follow(opened: Page[], { quietMs, timeoutMs }: SettleOptions, calmed: (calm: boolean) => void): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    const remaining = () => Math.max(1, until - Date.now());
    const loadedDocument = (tab: Page) => tab.waitForLoadState('domcontentloaded', { timeout: remaining() }).catch(() => undefined);
    // A tab opened while the settle follows the page (at once, or by a timer or message the action set going) is the action's.
    const followed = new Set<Page>();
    let loading = 0;
    const followTab = (tab: Page) => {
      if (followed.has(tab)) return;
      followed.add(tab);
      handActionTab(tab);
      loading++;
      void loadedDocument(tab).then(() => loading--);
    };
    opened.forEach(followTab);
    let first = true;
    try {
      while (!this.stopped && Date.now() < until && !this.page.isClosed()) {
        // The first look waits until the page has run what the input queued (a toggle event, a form's navigation).
        const read = { afterQueued: first, sincePrevious: this.tookOver };
        const look = first ? this.firstLook : undefined;
        const activities = look ? [await look.read(read)] : await Promise.all(this.frames.map((frame) => (frame.isDetached() ? IDLE : activityOf(frame, read))));
        this.dropFirstLook();
        if (first) this.pressesSeen(new Map(this.frames.map((frame, i) => [frame, activities[i]?.press])));
        first = false;
        // No watch in the main frame: a navigation replaced its document, which must be parsed first.
        if (activities[0] === null) await loadedDocument(this.page);
        const tabPending = await this.tabsOpenedMeanwhile(followTab);
        const nothingPending = !tabPending && loading === 0 && this.network.idle(RESPONSE_GRACE_MS) && activities.every((activity) => !activity?.pending);
        if (nothingPending) calmed(true);
        if (nothingPending && activities.every((activity) => activity === null || activity.quietMs >= quietMs)) {
          this.ended = true;
          return true;
        }
        const pause = nothingPending ? untilQuiet(activities, quietMs) : POLL_MS;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pause);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } catch {
      // The page or its browser went away: there is nothing left to wait for.
    }
    if (!this.stopped) this.ended = true;
    this.dropFirstLook();
    this.pressesSeen(new Map());
    return false;
  }

  /**
   * Follows the tabs opened since the action that Playwright has announced; true while the browser has
   * a tab Playwright has not announced yet (for at most ANNOUNCE_MAX_MS: one it never announces is not waited for).
   */
  private async tabsOpenedMeanwhile(follow: (tab: Page) => void): Promise<boolean> {
    const context = this.page.context();
    for (const tab of context.pages()) if (!this.tabsBefore.has(tab)) follow(tab);
    const targets = await pageTargetsIn(context, await browserContextIdOf(this.page));
    if (targets === null || targets <= context.pages().length) {
      this.unannouncedSince = undefined;
      return false;
    }
    this.unannouncedSince ??= Date.now();
    return Date.now() - this.unannouncedSince < ANNOUNCE_MAX_MS;
  }

  private dropFirstLook(): void {
    this.firstLook?.dispose();
    this.firstLook = undefined;
  }

  /** The context owes nothing more to this settle (its watch stays, for the document's life). */
  private forget(): void {
    if (unsettled.get(this.page.context()) === this) unsettled.delete(this.page.context());
  }
}

const IDLE: FrameActivity = { pending: 0, quietMs: Number.POSITIVE_INFINITY };

/**
 * With nothing pending, only the DOM's quiet is left to wait for: the next look comes when the frame that
 * changed last could have been quiet long enough, not at the next poll (one look, not two or three).
 */
function untilQuiet(activities: Array<FrameActivity | null>, quietMs: number): number {
  const sinceLastChange = Math.min(...activities.map((activity) => activity?.quietMs ?? Number.POSITIVE_INFINITY));
  return Math.max(1, Math.ceil(quietMs - sinceLastChange));
}

/**
 * The browser knows about a new tab before Playwright announces it (the context's 'page' event), so a
 * popup a click opened can still be missing from context.pages(). Count the browser's page targets in
 * this context and wait (bounded) until Playwright knows as many; return the tabs opened since tabsBefore.
 */
async function waitForOpenedTabs(page: Page, tabsBefore: ReadonlySet<Page>, maxMs: number): Promise<Page[]> {
  const context = page.context();
  try {
    const contextId = await browserContextIdOf(page);
    const tabs = (await pageTargetsIn(context, contextId)) ?? (await askedPageTargets(page, contextId));
    const until = Date.now() + maxMs;
    while (context.pages().length < tabs && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  } catch {
    // The page closed meanwhile: nothing more to wait for.
  }
  return context.pages().filter((tab) => !tabsBefore.has(tab));
}

/** The browser's page targets in the context, asked (one round trip) where its events cannot be followed. */
async function askedPageTargets(page: Page, contextId: string | undefined): Promise<number> {
  const { targetInfos } = await sendCdp<{ targetInfos: TargetInfo[] }>(page, 'Target.getTargets');
  return targetInfos.filter((t) => t.type === 'page' && t.browserContextId === contextId).length;
}

/** A page's browser context id never changes: asked once per page. */
const contextIds = new WeakMap<Page, Promise<string | undefined>>();

function browserContextIdOf(page: Page): Promise<string | undefined> {
  let id = contextIds.get(page);
  if (!id) {
    id = sendCdp<{ targetInfo: TargetInfo }>(page, 'Target.getTargetInfo').then(({ targetInfo }) => targetInfo.browserContextId);
    id.catch(() => contextIds.delete(page));
    contextIds.set(page, id);
  }
  return id;
}

interface TargetInfo {
  type: string;
  browserContextId?: string;
}
