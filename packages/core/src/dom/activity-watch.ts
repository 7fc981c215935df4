// What a page does in the moments after an action, seen from inside it: the short timers, intervals
// and animation frames it schedules (a render delayed by setTimeout, rows added by an interval, a
// route change drawn a frame later), the storage and blob work it starts (storage-watch.ts) and when
// its DOM last changed. Installed in a document by the first act on it and kept for the document's
// life; each action restarts it, either by an evaluation before the action or, once a settle has armed
// it, by the action's own first trusted input (no round trip), and then the page pushes its status once
// that input's effects have run (activity-push.ts). The status also tells how the action's press ended
// (press-watch.ts).
import { availableParallelism, loadavg } from 'node:os';
import type { Frame, Page } from 'playwright-core';
import { CHANNEL_PARTNERS_KEY } from '../browser/page-hooks/channel-hook.js';
import { domFunctions, INPUT_HOOK_KEY, nativeDom, type InputHook } from '../browser/page-hooks/input-hook.js';
import { inPage } from '../selectors/index.js';
import { readFrame } from './frame-read.js';
import { allowPushes, onPush, PUSH_BINDING, type WatchStatus } from './activity-push.js';
import { elementAtPoint, watchPresses, type PressOutcome } from './press-watch.js';
import { clickMayQueue } from './click-queue.js';
import { PAGE_CHANGES_KEY, pageChanges } from './page-changes.js';
import { watchStorage } from './storage-watch.js';

/** A timer longer than this is not the action's immediate effect (a toast that hides itself, a poll). */
const SHORT_TIMER_MS = 1_000;
/**
 * Timers scheduled later than this after the watch began are not counted, and an interval counts only
 * until then: a page that reschedules or ticks forever still settles.
 */
const WATCH_WINDOW_MS = 1_500;
/**
 * The window is meant in the page's own time. On a machine with more runnable work than cores, a renderer
 * runs only a share of the wall-clock time, so the window stretches by the load per core (at most this
 * much): a loop that takes 0.5 s on a quiet machine still counts at a load of 16 on 2 cores.
 */
const MAX_LOAD_STRETCH = 4;
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
/**
 * An idle callback the action scheduled runs at most this long after it was asked for: while the settle
 * looks at the page, Chromium gives it no idle period, so the callback would wait for the settle to end.
 */
const IDLE_MAX_MS = 50;
/** How long one status read of a frame may take; a frame that does not answer counts as idle. */
const STATUS_READ_MS = 1_000;
/**
 * How long the first look after an input waits for the page's push before it reads the status itself: a
 * click is pushed as its last listener has run, or two tasks later, after the frame it caused (16–33 ms
 * at 60 Hz); reading at once as well cost a round trip and an evaluation per act that the push made useless.
 */
const PUSH_WAIT_MS = 40;

export interface FrameActivity {
  /** Counted timers and animation frames not yet run, storage and blob work not yet ended, and navigations to a new document not yet committed. */
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

/** The 1-minute load average per core, between 1 and MAX_LOAD_STRETCH (read as a watch starts). */
function loadStretch(): number {
  return Math.min(MAX_LOAD_STRETCH, Math.max(1, loadavg()[0]! / availableParallelism()));
}

/** Starts (or restarts) the watch in `frame` now. A frame that cannot be read is not watched. */
export async function startWatch(frame: Frame): Promise<void> {
  followNavigations(frame.page());
  armed.delete(frame);
  const limits: WatchLimits = { short: SHORT_TIMER_MS, window: WATCH_WINDOW_MS * loadStretch(), chain: MAX_CHAIN, navigationMs: NAVIGATION_MAX_MS, queuedMaxMs: QUEUED_MAX_MS, idleMs: IDLE_MAX_MS, binding: PUSH_BINDING, channelPartners: CHANNEL_PARTNERS_KEY, inputHook: INPUT_HOOK_KEY, pageChangesKey: PAGE_CHANGES_KEY };
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
  /** The status the page pushed after the input's effects, or, when none has come within PUSH_WAIT_MS, one read (whichever answers first). */
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
      const readLater = new Promise<WatchStatus | null>((resolve) => {
        const timer = setTimeout(() => resolve(statusOf(frame, read)), PUSH_WAIT_MS);
        void pushed.then(() => clearTimeout(timer));
      });
      const status = arrived ?? (await Promise.race([pushed, readLater]));
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
  idleMs: number;
  binding: string;
  channelPartners: string;
  inputHook: string;
  pageChangesKey: string;
}

/** Installs the watch in the frame's document, or restarts the one it has; true when it installed one. */
const INSTALL = inPage(({ short, window: watchWindow, chain, navigationMs, queuedMaxMs, idleMs, binding, channelPartners, inputHook, pageChangesKey }: WatchLimits, lib): boolean => {
  type Watch = { restart(): void };
  const host = window as unknown as Record<string, unknown>;
  const existing = host['__deckhandActivityWatch'] as Watch | undefined;
  if (existing) {
    existing.restart();
    return false;
  }
  // The input hook's first listeners and the original addEventListener, where the document has them (page-hooks/input-hook.ts).
  const input = host[inputHook] as InputHook | undefined;
  const listen = input?.addEventListener ?? EventTarget.prototype.addEventListener;
  const early = (type: string, handler: (event: Event) => void) => (input ? input.on(type, handler) : listen.call(window, type, handler, { capture: true }));
  // Prefixes of pending work that counts only for the watch window: intervals, messages, worker answers, idle callbacks.
  const BOUNDED_BY_WINDOW = 'imwq';
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
  // How many counted callbacks deep the code running now is (0: an event handler, a fetch callback).
  let depth = 0;

  const inWindow = () => performance.now() - started <= watchWindow;
  const counted = (delay: number) => depth < chain && delay <= short && inWindow();
  // A counted callback, run at `myDepth` (`before` first). One scheduled before the action started is the
  // page's own, not a link from the action.
  const linked = (callback: (...a: unknown[]) => unknown, myDepth: number, before = () => {}) => {
    const scheduledAt = performance.now();
    return function (this: unknown, ...callbackArgs: unknown[]) {
      before();
      const outer = depth;
      depth = scheduledAt >= started ? myDepth : 0;
      try {
        return callback.apply(this, callbackArgs);
      } finally {
        depth = outer;
      }
    };
  };
  // `link`: the callback runs one link deeper than the code that scheduled it (timers, frames). An idle
  // callback runs at its scheduler's depth: a loop of them is bounded by the watch window instead.
  const track = <F extends (...args: never[]) => number>(schedule: F, prefix: string, delayOf: (args: unknown[]) => number, link = true): F =>
    new Proxy(schedule, {
      apply(target, self, args: unknown[]) {
        const callback = args[0];
        if (typeof callback !== 'function' || !counted(delayOf(args))) return Reflect.apply(target, self, args);
        // The settle's own looks keep Chromium from idling: an idle callback the action scheduled runs within idleMs.
        if (prefix === 'q') args[1] = { ...(args[1] as object), timeout: Math.min(Number((args[1] as { timeout?: number })?.timeout) || idleMs, idleMs) };
        let id = 0;
        // An interval stays pending until it is cleared; a timeout or frame is done once it runs.
        args[0] = linked(callback as (...a: unknown[]) => unknown, link ? depth + 1 : depth, () => prefix !== 'i' && pending.delete(prefix + id));
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

  // When the DOM last changed (and what a replay picture's mark compares): shared with the picture's mark.
  const changes = lib.pageChanges(pageChangesKey, listen, lib.shadowRootOf);

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

  // Work handed to the browser outside timers, each counted until it runs or arrives, and at most the
  // watch window after it was posted (a port no one reads, a worker that never answers, a page never idle).
  // Message and idle loops are bounded by the window too: nothing posted after it counts.
  let posts = 0;
  // Per receiver (a port, this window, a worker), the counted messages on their way, oldest first ('' an uncounted one).
  const onTheWay = new WeakMap<EventTarget, string[]>();
  const posted = (receiver: EventTarget) => {
    const id = counted(0) ? 'm' + String(++posts) : '';
    if (id) pending.set(id, performance.now());
    const queue = onTheWay.get(receiver);
    if (queue) queue.push(id);
    else onTheWay.set(receiver, [id]);
  };
  const arrived = (receiver: EventTarget) => {
    const id = onTheWay.get(receiver)?.shift();
    if (id) pending.delete(id);
  };
  const wrapMethod = <T extends object>(owner: T, name: keyof T, after: (self: unknown) => void) => {
    const method = owner[name];
    if (typeof method !== 'function') return;
    owner[name] = new Proxy(method, {
      apply(target, self, args: unknown[]) {
        const result = Reflect.apply(target, self, args) as unknown;
        after(self);
        return result;
      },
    }) as T[keyof T];
  };
  // What a MessageChannel's port posts arrives at the other, paired by the channel hook from the document's
  // start (browser/page-hooks/channel-hook.ts); our listener does not start a port.
  const partners = host[channelPartners] as WeakMap<MessagePort, MessagePort> | undefined;
  const followedPorts = new WeakSet<MessagePort>();
  wrapMethod(MessagePort.prototype, 'postMessage', (self) => {
    const partner = partners?.get(self as MessagePort);
    if (!partner) return;
    if (!followedPorts.has(partner)) listen.call(partner, 'message', () => arrived(partner));
    followedPorts.add(partner);
    posted(partner);
  });
  // A message the window sends itself (a scheduler's yield); messages to other windows are not followed.
  wrapMethod(window, 'postMessage', (self) => (self === window || self == null) && posted(window));
  listen.call(window, 'message', (event: Event) => (event as MessageEvent).source === window && arrived(window), { capture: true });
  // A Worker made or messaged by the action is pending until it answers (a message or an error).
  const answers = new WeakMap<Worker, string>();
  const awaitAnswer = (worker: Worker) => {
    if (!counted(0)) return;
    let id = answers.get(worker);
    if (!id) {
      answers.set(worker, (id = 'w' + String(++posts)));
      const answered = () => pending.delete(id!);
      listen.call(worker, 'message', answered);
      listen.call(worker, 'error', answered);
    }
    pending.set(id, performance.now());
  };
  const NativeWorker = window.Worker;
  if (NativeWorker) {
    window.Worker = new Proxy(NativeWorker, {
      construct(target, args, newTarget) {
        const worker = Reflect.construct(target, args, newTarget) as Worker;
        awaitAnswer(worker);
        return worker;
      },
    });
    wrapMethod(NativeWorker.prototype, 'postMessage', (self) => awaitAnswer(self as Worker));
  }
  // IndexedDB, Blob, body, FileReader and Cache work (storage-watch.ts), each pending until it ends: not
  // bounded by the window once counted (a 60 MB write takes what it takes; the settle bound ends it).
  let works = 0;
  lib.watchStorage(() => {
    if (!counted(0)) return undefined;
    const id = 's' + String(++works);
    pending.set(id, performance.now());
    return () => pending.delete(id);
  }, listen);
  // A task the action posted with `scheduler.postTask` (Chromium): counted as a timer of its delay, pending
  // until it has run (or was aborted), its callback one link deeper.
  const schedulerProto = (window as unknown as { Scheduler?: { prototype: Record<string, unknown> } }).Scheduler?.prototype;
  const pagePostTask = schedulerProto?.postTask;
  if (typeof pagePostTask === 'function') {
    const settled = Promise.prototype.then;
    let tasks = 0;
    schedulerProto!.postTask = new Proxy(pagePostTask, {
      apply(target, self, args: unknown[]) {
        const callback = args[0];
        if (typeof callback !== 'function' || !counted(Number((args[1] as { delay?: number } | undefined)?.delay) || 0)) return Reflect.apply(target, self, args);
        args[0] = linked(callback as (...a: unknown[]) => unknown, depth + 1);
        const result = Reflect.apply(target, self, args) as Promise<unknown>;
        const id = 'k' + String(++tasks);
        pending.set(id, performance.now());
        const done = () => pending.delete(id);
        settled.call(result, done, done);
        return result;
      },
    });
  }
  // CSS transitions and animations the action started that end within a short timer's bound (their end
  // event is often what updates the page); an endless one (a spinner) is not the action's effect.
  const runningAnimations = (since: number) => {
    let count = 0;
    for (const animation of document.getAnimations()) {
      if (animation.playState !== 'running') continue;
      const end = animation.effect?.getComputedTiming().endTime;
      const start = animation.startTime === null ? performance.now() : Number(animation.startTime);
      if (typeof end === 'number' && end <= short && start >= since && start - since <= watchWindow) count++;
    }
    return count;
  };

  const wrapped = {
    setTimeout: track(native.setTimeout, 't', (args) => Number(args[1]) || 0),
    clearTimeout: untrack(native.clearTimeout, 't'),
    setInterval: track(native.setInterval, 'i', (args) => Number(args[1]) || 0),
    clearInterval: untrack(native.clearInterval, 'i'),
    requestAnimationFrame: track(native.requestAnimationFrame, 'f', () => 0),
    cancelAnimationFrame: untrack(native.cancelAnimationFrame, 'f'),
    ...(window.requestIdleCallback && {
      requestIdleCallback: track(window.requestIdleCallback, 'q', () => 0, false),
      cancelIdleCallback: untrack(window.cancelIdleCallback, 'q'),
    }),
  };
  Object.assign(window, wrapped);
  const watch = {
    restart() {
      previous = started;
      started = performance.now();
      generation = stamp();
      armedByRead = false;
      pushOnRelease = false;
      awaitingPush = false;
      queuedSign = false;
      presses.restart();
      changes.follow(document);
      // Last among the window's click listeners, so the page's own have run when it hears the click.
      unlisten.call(window, 'click', onClickEnd);
      listen.call(window, 'click', onClickEnd);
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
      // What the action (and, taken over, the one before it) scheduled; an interval, a message, a worker's
      // answer and an idle callback count for the watch window from when they were set.
      const since = sincePrevious ? previous : started;
      const now = performance.now();
      let count = runningAnimations(since);
      for (const [id, at] of pending) {
        if (at < since) continue;
        if (BOUNDED_BY_WINDOW.includes(id[0]!) && now - at > watchWindow) {
          if (id[0] !== 'i') pending.delete(id);
          continue;
        }
        count++;
      }
      armedByRead = true;
      return { generation, pending: count, quietMs: performance.now() - changes.lastChange, press: presses.outcome() };
    },
  };
  // An action's first trusted input (Playwright's pointer move onto the element, or its press) restarts
  // an armed watch as it happens, before the page's own handlers (capture, on the window), so the act
  // need not ask first.
  const onInput = (event: Event) => {
    if (!event.isTrusted || !armedByRead) return;
    watch.restart();
    pushOnRelease = event.type !== 'keydown';
    awaitingPush = pushOnRelease;
  };
  for (const type of ['pointermove', 'pointerdown', 'keydown']) early(type, onInput);
  // After the restart on input: a press is recorded once its restart has run.
  const presses = lib.watchPresses(early, lib.elementAtPoint, lib.nativeDom(), lib.pointerListenersOf);
  // The pointer's release ends the action's input (bubbling: a release Playwright's hit-target check stops
  // is not the action's, and no push comes). The status is pushed two normal-priority tasks later: the
  // first runs after the input's own task, the second after what that task queued (a toggle event, a
  // form's navigation). Chromium runs both only after the frame the input caused is drawn.
  const hop = (task: () => void) => (postTask ? void postTask.call(scheduler, task, { priority: 'user-visible' }).catch(() => undefined) : later(task, 0));
  // The action's status is yet to be pushed (at its click, or after the two tasks): once per restart on input.
  let awaitingPush = false;
  const push = () => {
    if (!awaitingPush) return;
    awaitingPush = false;
    const bound = host[binding];
    if (typeof bound === 'function') bound(JSON.stringify({ ...watch.status(false), top: window.top === window }));
  };
  const onRelease = (event: Event) => {
    if (!event.isTrusted || !pushOnRelease) return;
    pushOnRelease = false;
    hop(() => hop(push));
  };
  for (const type of ['pointerup', 'click']) listen.call(window, type, onRelease);
  // A click whose dispatch leaves nothing to run after it (no activation behaviour, no form sent, no open
  // popover or dialog: click-queue.ts) is reported as its last listener has run, before the frame, with
  // nothing of the page's left to wait for; any other keeps the push two tasks later.
  const unlisten = EventTarget.prototype.removeEventListener;
  let queuedSign = false;
  listen.call(window, 'submit', () => (queuedSign = true), { capture: true });
  wrapMethod(HTMLFormElement.prototype, 'submit', () => (queuedSign = true));
  const onClickEnd = (event: Event) => {
    if (!event.isTrusted || !awaitingPush || queuedSign || lib.clickMayQueue(event)) return;
    push();
  };
  Object.defineProperty(window, '__deckhandActivityWatch', { value: watch, enumerable: false, configurable: true });
  return true;
}, { watchPresses, elementAtPoint, clickMayQueue, watchStorage, nativeDom, domFunctions, pageChanges });

const STATUS = ({ afterQueued, sincePrevious }: Required<ActivityRead>): WatchStatus | null | Promise<WatchStatus> => {
  type Watch = { status(sincePrevious: boolean): WatchStatus; statusAfterQueued(sincePrevious: boolean): Promise<WatchStatus> };
  const watch = (window as unknown as Record<string, Watch | undefined>)['__deckhandActivityWatch'];
  if (!watch) return null;
  return afterQueued ? watch.statusAfterQueued(sincePrevious) : watch.status(sincePrevious);
};
