// What a page does in the moments after an action, seen from inside it: the short timers, intervals
// and animation frames it schedules (a render delayed by setTimeout, rows added by an interval, a
// route change drawn a frame later) and when its DOM last changed. Installed in a frame just before the action and removed once the
// action's work is done, so the page runs with its own timer functions the rest of the time.
import type { Frame } from 'playwright-core';
import { inPage } from '../selectors/index.js';
import { readFrame } from './frame-read.js';

/** A timer longer than this is not the action's immediate effect (a toast that hides itself, a poll). */
const SHORT_TIMER_MS = 1_000;
/**
 * Timers scheduled later than this after the watch began are not counted, and an interval counts only
 * until then: a page that reschedules or ticks forever still settles.
 */
const WATCH_WINDOW_MS = 1_500;
/** A timer scheduled by a counted timer's callback counts, up to this many links (animation loops end). */
const MAX_CHAIN = 3;
/**
 * A navigation to a new document the action started (a form sent by Enter, a link) counts as pending
 * until that document replaces the watched one, or this long: one that never commits (a download, a
 * 204) does not hold the page forever.
 */
const NAVIGATION_MAX_MS = 2_000;
/** How long a read after the page's queued tasks waits for a page that is never idle. */
const QUEUED_MAX_MS = 50;
/** How long one status read of a frame may take; a frame that does not answer counts as idle. */
const STATUS_READ_MS = 1_000;

export interface FrameActivity {
  /** Counted timers and animation frames not yet run, and navigations to a new document not yet committed. */
  pending: number;
  /** Milliseconds since the DOM (light or shadow) last changed. */
  quietMs: number;
}

/** Starts (or restarts) the watch in `frame`. A frame that cannot be read is not watched. */
export async function startWatch(frame: Frame): Promise<void> {
  const limits: WatchLimits = { short: SHORT_TIMER_MS, window: WATCH_WINDOW_MS, chain: MAX_CHAIN, navigationMs: NAVIGATION_MAX_MS, queuedMaxMs: QUEUED_MAX_MS };
  await readFrame(frame, () => frame.evaluate(INSTALL, limits), { boundMs: STATUS_READ_MS }).catch(() => undefined);
}

/**
 * What the frame's watch has seen, or null when the frame has no watch: a new document replaced the
 * one watched (a navigation), the frame is gone, or it did not answer. `afterQueued` reads once the
 * page has run the tasks it had queued (what an input queued: a toggle event, a form's navigation).
 */
export async function activityOf(frame: Frame, { afterQueued = false } = {}): Promise<FrameActivity | null> {
  return readFrame(frame, () => frame.evaluate(STATUS, afterQueued), { boundMs: STATUS_READ_MS }).catch(() => null);
}

/** Removes the watch: the page's own timer functions are back. */
export async function stopWatch(frame: Frame): Promise<void> {
  await readFrame(frame, () => frame.evaluate(UNINSTALL), { boundMs: STATUS_READ_MS }).catch(() => undefined);
}

interface WatchLimits {
  short: number;
  window: number;
  chain: number;
  navigationMs: number;
  queuedMaxMs: number;
}

const INSTALL = inPage(({ short, window: watchWindow, chain, navigationMs, queuedMaxMs }: WatchLimits, lib) => {
  type Watch = { restart(): void };
  const host = window as unknown as Record<string, unknown>;
  const existing = host['__deckhandActivityWatch'] as Watch | undefined;
  if (existing) return existing.restart();

  const native = {
    setTimeout: window.setTimeout,
    clearTimeout: window.clearTimeout,
    setInterval: window.setInterval,
    clearInterval: window.clearInterval,
    requestAnimationFrame: window.requestAnimationFrame,
    cancelAnimationFrame: window.cancelAnimationFrame,
  };
  // A timer of our own, not counted and not seen by the page's wrappers.
  const later = (task: () => void, ms: number) => native.setTimeout.call(window, task, ms);
  // Counted callbacks not yet run (or intervals not yet cleared), with when each was scheduled.
  const pending = new Map<string, number>();
  let started = performance.now();
  let lastChange = started;
  // How many counted callbacks deep the code running now is (0: an event handler, a fetch callback).
  let depth = 0;

  const inWindow = () => performance.now() - started <= watchWindow;
  const counted = (delay: number) => depth < chain && delay <= short && inWindow();
  const track = <F extends (...args: never[]) => number>(schedule: F, prefix: string, delayOf: (args: unknown[]) => number): F =>
    new Proxy(schedule, {
      apply(target, self, args: unknown[]) {
        const callback = args[0];
        if (typeof callback !== 'function' || !counted(delayOf(args))) return Reflect.apply(target, self, args);
        const myDepth = depth + 1;
        let id = 0;
        args[0] = function (this: unknown, ...callbackArgs: unknown[]) {
          // An interval stays pending until it is cleared; a timeout or frame is done once it runs.
          if (prefix !== 'i') pending.delete(prefix + id);
          const outer = depth;
          depth = myDepth;
          try {
            return (callback as (...a: unknown[]) => unknown).apply(this, callbackArgs);
          } finally {
            depth = outer;
          }
        };
        id = Reflect.apply(target, self, args) as number;
        pending.set(prefix + id, performance.now());
        return id;
      },
    });
  const untrack = <F extends (id: number) => void>(cancel: F, prefix: string): F =>
    new Proxy(cancel, {
      apply(target, self, args: unknown[]) {
        pending.delete(prefix + String(args[0]));
        return Reflect.apply(target, self, args);
      },
    });

  const observer = new MutationObserver(() => {
    lastChange = performance.now();
  });
  const observe = (root: Node) => {
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.nextNode(); el; el = walker.nextNode()) {
      const shadow = lib.shadowRootOf(el as Element);
      if (shadow) observe(shadow);
    }
  };
  observe(document);

  // The browser asks for a navigation's document only after the action's input event returns, so the
  // request may not be seen yet when the settle first looks; the Navigation API's event is synchronous.
  type NavigateEvent = Event & { destination: { sameDocument: boolean } };
  const navigation = (window as unknown as { navigation?: EventTarget }).navigation;
  let navigations = 0;
  const onNavigate = (event: Event) => {
    if ((event as NavigateEvent).destination.sameDocument) return;
    const id = 'n' + String(++navigations);
    pending.set(id, performance.now());
    // A page handler that cancels it runs after this one; see the outcome once the event is done.
    later(() => event.defaultPrevented && pending.delete(id), 0);
    later(() => pending.delete(id), navigationMs);
  };
  navigation?.addEventListener('navigate', onNavigate);

  const wrapped = {
    setTimeout: track(native.setTimeout, 't', (args) => Number(args[1]) || 0),
    clearTimeout: untrack(native.clearTimeout, 't'),
    setInterval: track(native.setInterval, 'i', (args) => Number(args[1]) || 0),
    clearInterval: untrack(native.clearInterval, 'i'),
    requestAnimationFrame: track(native.requestAnimationFrame, 'f', () => 0),
    cancelAnimationFrame: untrack(native.cancelAnimationFrame, 'f'),
  };
  Object.assign(window, wrapped);
  const watch = {
    restart() {
      started = performance.now();
    },
    statusAfterQueued() {
      // A background task runs once the page has no other work queued; a page that is never idle gets a bound.
      const scheduler = (window as unknown as { scheduler?: { postTask(task: () => void, o: { priority: string }): Promise<void> } }).scheduler;
      return new Promise((resolve) => {
        const read = () => resolve(watch.status());
        later(read, queuedMaxMs);
        if (scheduler) void scheduler.postTask(read, { priority: 'background' });
        else later(read, 0);
      });
    },
    status() {
      // An interval counts for the watch window from when it was set, even if a later action restarted the watch.
      let count = 0;
      for (const [id, at] of pending) if (id[0] !== 'i' || performance.now() - at <= watchWindow) count++;
      return { pending: count, quietMs: performance.now() - lastChange };
    },
    stop() {
      observer.disconnect();
      navigation?.removeEventListener('navigate', onNavigate);
      // A page that replaced a function meanwhile keeps its own.
      for (const name of Object.keys(wrapped) as Array<keyof typeof wrapped>) {
        if (window[name] === wrapped[name]) Object.assign(window, { [name]: native[name] });
      }
      delete host['__deckhandActivityWatch'];
    },
  };
  Object.defineProperty(window, '__deckhandActivityWatch', { value: watch, enumerable: false, configurable: true });
});

const STATUS = (afterQueued: boolean): FrameActivity | null | Promise<FrameActivity> => {
  type Watch = { status(): FrameActivity; statusAfterQueued(): Promise<FrameActivity> };
  const watch = (window as unknown as Record<string, Watch | undefined>)['__deckhandActivityWatch'];
  if (!watch) return null;
  return afterQueued ? watch.statusAfterQueued() : watch.status();
};

const UNINSTALL = (): void => {
  (window as unknown as Record<string, { stop(): void } | undefined>)['__deckhandActivityWatch']?.stop();
};
