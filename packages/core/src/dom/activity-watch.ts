// What a page does in the moments after an action, seen from inside it: the short timers, intervals
// and animation frames it schedules (a render delayed by setTimeout, rows added by an interval, a
// route change drawn a frame later) and when its DOM last changed. Installed in a document by the first
// act on it and kept for the document's life; each action restarts it, either by an evaluation before
// the action or, once a settle has armed it, by the action's own first trusted input (no round trip),
// and then the page pushes its status once that input's effects have run (activity-push.ts). The status
// also tells how the action's press ended (press-watch.ts).
import type { Frame, Page } from 'playwright-core';
import { inPage } from '../selectors/index.js';
import { readFrame } from './frame-read.js';
import { allowPushes, onPush, PUSH_BINDING, type WatchStatus } from './activity-push.js';
import { watchPresses, type PressOutcome } from './press-watch.js';

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
  /** How the action's trusted press ended (press-watch.ts); absent when the watch saw none. */
  press?: PressOutcome;
}

/**
 * Frames whose current document has a watch armed by a status read: its next trusted input restarts it.
 * Forgotten when the frame navigates (Playwright's framenavigated, followed once per page).
 */
const armed = new WeakSet<Frame>();
const followed = new WeakSet<Page>();
/** The restart each frame's watch last reported (a status read or a push): a push from an older one is not an action's. */
const generations = new WeakMap<Frame, number>();

function followNavigations(page: Page): void {
  if (followed.has(page)) return;
  followed.add(page);
  page.on('framenavigated', (frame) => armed.delete(frame));
}

/**
 * Restarts the watch in `frame` at the action's first trusted input instead of now, when the frame's
 * document has an armed watch; returns whether it will (the arm is used up either way).
 */
export function restartsOnInput(frame: Frame): boolean {
  return armed.delete(frame);
}

/** Starts (or restarts) the watch in `frame` now. A frame that cannot be read is not watched. */
export async function startWatch(frame: Frame): Promise<void> {
  followNavigations(frame.page());
  armed.delete(frame);
  const limits: WatchLimits = { short: SHORT_TIMER_MS, window: WATCH_WINDOW_MS, chain: MAX_CHAIN, navigationMs: NAVIGATION_MAX_MS, queuedMaxMs: QUEUED_MAX_MS, binding: PUSH_BINDING };
  const installed = await readFrame(frame, () => frame.evaluate(INSTALL, limits), { boundMs: STATUS_READ_MS }).catch(() => undefined);
  // A new document's watch gets its binding; nothing waits for it (the first push is a later action's).
  if (installed && frame === frame.page().mainFrame()) void allowPushes(frame.page()).catch(() => undefined);
}

export interface ActivityRead {
  /** Read once the page has run the tasks it had queued (what an input queued: a toggle event, a form's navigation). */
  afterQueued?: boolean;
  /** Count from the watch's previous start too: a newer action took over this one's settle. */
  sincePrevious?: boolean;
}

/**
 * What the frame's watch has seen, or null when the frame has no watch: a new document replaced the
 * one watched (a navigation), the frame is gone, or it did not answer. Each read arms the watch.
 */
export async function activityOf(frame: Frame, read: ActivityRead = {}): Promise<FrameActivity | null> {
  const status = await statusOf(frame, read);
  return status && reported(frame, status);
}

function statusOf(frame: Frame, { afterQueued = false, sincePrevious = false }: ActivityRead): Promise<WatchStatus | null> {
  return readFrame(frame, () => frame.evaluate(STATUS, { afterQueued, sincePrevious }), { boundMs: STATUS_READ_MS }).catch(() => null);
}

/** A status the watch reported (and so armed): its restart is remembered. */
function reported(frame: Frame, { generation, pending, quietMs, press }: WatchStatus): FrameActivity {
  armed.add(frame);
  generations.set(frame, Math.max(generation, generations.get(frame) ?? 0));
  return { pending, quietMs, press };
}

/** The first look after an action whose input restarts the main frame's watch (restartsOnInput). */
export interface FirstLook {
  /** The status the page pushed after the input's effects, or, while none has come, one read (whichever answers first). */
  read(options: ActivityRead): Promise<FrameActivity | null>;
  /** Stops waiting for the push. */
  dispose(): void;
}

/**
 * Starts waiting, before the action, for the push its input will cause in the page's main frame: one
 * counted from a restart later than any the frame reported so far.
 */
export function firstLookOnInput(frame: Frame): FirstLook {
  const after = generations.get(frame) ?? 0;
  let arrived: WatchStatus | undefined;
  let resolvePush: (pushed: WatchStatus) => void = () => {};
  const pushed = new Promise<WatchStatus>((resolve) => (resolvePush = resolve));
  const stop = onPush(frame.page(), (status) => {
    if (arrived || status.generation <= after) return;
    arrived = status;
    resolvePush(status);
  });
  return {
    read: async (read) => {
      const status = arrived ?? (await Promise.race([pushed, statusOf(frame, read)]));
      stop();
      return status && reported(frame, status);
    },
    dispose: stop,
  };
}

interface WatchLimits {
  short: number;
  window: number;
  chain: number;
  navigationMs: number;
  queuedMaxMs: number;
  binding: string;
}

/** Installs the watch in the frame's document, or restarts the one it has; true when it installed one. */
const INSTALL = inPage(({ short, window: watchWindow, chain, navigationMs, queuedMaxMs, binding }: WatchLimits, lib): boolean => {
  type Watch = { restart(): void };
  const host = window as unknown as Record<string, unknown>;
  const existing = host['__deckhandActivityWatch'] as Watch | undefined;
  if (existing) {
    existing.restart();
    return false;
  }
  const listen = EventTarget.prototype.addEventListener;
  type Scheduler = { postTask(task: () => void, o: { priority: string }): Promise<void> };
  const scheduler = (window as unknown as { scheduler?: Scheduler }).scheduler;
  const postTask = scheduler?.postTask;

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
  // The start before the last restart: a settle a newer action took over still counts from it.
  let previous = started;
  // Which restart the status counts from, as a time stamp that keeps growing in the frame's next documents.
  const stamp = () => performance.timeOrigin + performance.now();
  let generation = stamp();
  // The watch was restarted by an action's input: its release pushes the status.
  let pushOnRelease = false;
  // A status read armed the watch: the next trusted input is an action's, and restarts it.
  let armedByRead = false;
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
        const scheduledAt = performance.now();
        let id = 0;
        args[0] = function (this: unknown, ...callbackArgs: unknown[]) {
          // An interval stays pending until it is cleared; a timeout or frame is done once it runs.
          if (prefix !== 'i') pending.delete(prefix + id);
          const outer = depth;
          // A callback scheduled before the action started is the page's own, not a link from the action.
          depth = scheduledAt >= started ? myDepth : 0;
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
  const observed = new WeakSet<Node>();
  // Each start looks again for shadow roots made since the last one.
  const observe = (root: Node) => {
    if (!observed.has(root)) observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    observed.add(root);
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
      previous = started;
      started = performance.now();
      generation = stamp();
      armedByRead = false;
      pushOnRelease = false;
      presses.restart();
      observe(document);
    },
    statusAfterQueued(sincePrevious: boolean) {
      // A background task runs once the page has no other work queued; a page that is never idle gets a bound.
      return new Promise((resolve) => {
        const read = () => resolve(watch.status(sincePrevious));
        later(read, queuedMaxMs);
        if (postTask) void postTask.call(scheduler, read, { priority: 'background' });
        else later(read, 0);
      });
    },
    status(sincePrevious: boolean) {
      // What the action (and, taken over, the one before it) scheduled; an interval counts for the watch
      // window from when it was set.
      const since = sincePrevious ? previous : started;
      let count = 0;
      for (const [id, at] of pending) if (at >= since && (id[0] !== 'i' || performance.now() - at <= watchWindow)) count++;
      armedByRead = true;
      return { generation, pending: count, quietMs: performance.now() - lastChange, press: presses.outcome() };
    },
  };
  // An action's first trusted input (Playwright's pointer move onto the element, or its press) restarts
  // an armed watch as it happens, before the page's own handlers (capture, on the window), so the act
  // need not ask first.
  const onInput = (event: Event) => {
    if (!event.isTrusted || !armedByRead) return;
    watch.restart();
    pushOnRelease = event.type !== 'keydown';
  };
  for (const type of ['pointermove', 'pointerdown', 'keydown']) listen.call(window, type, onInput, { capture: true });
  // After the restart on input: a press is recorded once its restart has run.
  const presses = lib.watchPresses(listen);
  // The pointer's release ends the action's input (bubbling: a release Playwright's hit-target check stops
  // is not the action's, and no push comes). The status is pushed two normal-priority tasks later: the
  // first runs after the input's own task, the second after what that task queued (a toggle event, a
  // form's navigation), and usually both before the frame the input caused is drawn.
  const hop = (task: () => void) => (postTask ? void postTask.call(scheduler, task, { priority: 'user-visible' }).catch(() => undefined) : later(task, 0));
  const onRelease = (event: Event) => {
    if (!event.isTrusted || !pushOnRelease) return;
    pushOnRelease = false;
    hop(() =>
      hop(() => {
        const push = host[binding];
        if (typeof push === 'function') push(JSON.stringify({ ...watch.status(false), top: window.top === window }));
      }),
    );
  };
  for (const type of ['pointerup', 'click']) listen.call(window, type, onRelease);
  Object.defineProperty(window, '__deckhandActivityWatch', { value: watch, enumerable: false, configurable: true });
  return true;
}, { watchPresses });

const STATUS = ({ afterQueued, sincePrevious }: Required<ActivityRead>): WatchStatus | null | Promise<WatchStatus> => {
  type Watch = { status(sincePrevious: boolean): WatchStatus; statusAfterQueued(sincePrevious: boolean): Promise<WatchStatus> };
  const watch = (window as unknown as Record<string, Watch | undefined>)['__deckhandActivityWatch'];
  if (!watch) return null;
  return afterQueued ? watch.statusAfterQueued(sincePrevious) : watch.status(sincePrevious);
};
