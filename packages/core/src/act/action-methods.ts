// The Action methods an act can run without a model, one small handler each.
import type { ElementHandle, Frame, Locator, Page } from 'playwright-core';
import type { PlainQuery, Resolution } from '../selectors/index.js';
import { pageFunction } from '../selectors/in-page.js';
import { ACTION_METHODS as MODEL_ACTION_METHODS, GO_BACK } from '../inference/types.js';
import { isDeckhandError } from '../errors.js';
import { ActionFailure } from './action-failure.js';
import { fillChecked } from './fill-check.js';
import type { EndState } from './end-state.js';
import { checkFileField } from './file-input-check.js';
import { basename } from 'node:path';
import { pointerClick } from './pointer-click.js';
import { chooseListOption } from './listbox-option.js';
import { setAriaSlider } from './aria-slider.js';

/**
 * What a method acts on: a locator (Playwright finds the element as it acts) or a handle to an element
 * found by walking a deep XPath.
 */
export type ActionElement = Locator | ElementHandle<Element>;

export interface ActionTarget {
  page: Page;
  /** The element's frame (the frame acted in, when there is no element). */
  frame: Frame;
  /** Absent only for methods that can act on the page itself (press with no selector). */
  element?: ActionElement;
  /** A locator's selector as the page's own query reads it, when it can (resolve-target.ts). */
  query?: PlainQuery;
  /** Arguments with variables already substituted. */
  args: string[];
  /** Bound for each Playwright wait (actionability, scrolling). */
  timeoutMs: number;
  /** Resolves a second selector in the same frame (dragAndDrop's target). */
  resolve(selector: string): Promise<Resolution>;
  /** The paths of files sent to the session, by name (setInputFiles). */
  files(names: string[]): Promise<string[]>;
}

export interface ActionMethod {
  /** Whether the method can run without a selector. */
  pageLevel?: boolean;
  /** A past-tense phrase for log lines and messages. */
  verb: string;
  /**
   * Its first effect in the page is trusted pointer input in the element's frame (Playwright moves the
   * mouse onto the element, then presses), which
   * restarts the frame's page watch as it lands (dom/activity-watch.ts), so none is started before.
   */
  trustedInput?: true;
  /** Its press must end in a click on the element: one the page took away from it is refused (click-landing.ts). */
  clicks?: true;
  /**
   * It asks of its element only evaluations and our pointer click: a pinned element in the main frame is
   * held without a Playwright handle (selectors/remote-element.ts).
   */
  evaluatesOnly?: true;
  /** What the element should still hold once the page settles, when the method leaves a state (end-state.ts). */
  run(target: ActionTarget): Promise<void | EndState>;
}

const ACTION_METHODS = {
  click: { verb: 'clicked', trustedInput: true, clicks: true, evaluatesOnly: true, run: ({ page, frame, element, query, timeoutMs }) => pointerClick(page, frame, need(element), timeoutMs, query) },
  fill: {
    verb: 'filled',
    run: async ({ element, args, timeoutMs }) => ({ value: (await setAriaSlider(need(element), arg(args, 0), timeoutMs)) ?? (await fillChecked(need(element), arg(args, 0), timeoutMs)) }),
  },
  type: {
    verb: 'typed into',
    run: async ({ page, element, args }) => {
      await need(element).focus();
      await page.keyboard.type(arg(args, 0));
      return { typed: arg(args, 0) };
    },
  },
  press: {
    pageLevel: true,
    verb: 'pressed a key on',
    run: ({ page, element, args, timeoutMs }) =>
      element ? element.press(arg(args, 0), { timeout: timeoutMs }) : page.keyboard.press(arg(args, 0)),
  },
  hover: { verb: 'hovered', run: ({ element, timeoutMs }) => need(element).hover({ timeout: timeoutMs }) },
  scrollIntoView: {
    verb: 'scrolled into view',
    run: ({ element, timeoutMs }) => need(element).scrollIntoViewIfNeeded({ timeout: timeoutMs }),
  },
  scrollTo: {
    verb: 'scrolled',
    run: async ({ element, args }) => {
      const percent = Number.parseFloat(arg(args, 0).replace('%', ''));
      if (!Number.isFinite(percent)) throw new ActionFailure('scrollTo needs a percentage such as "50%"');
      // Answered once the page has seen its scroll event (dispatched at the next frame), so a page that
      // reacts to scrolling has done so by the time the act says it scrolled.
      await evaluateOn(need(element), (el, pct) => {
        const box = el === document.documentElement || el === document.body ? document.scrollingElement! : el;
        const top = ((box.scrollHeight - box.clientHeight) * Math.min(100, Math.max(0, pct))) / 100;
        if (Math.abs(box.scrollTop - top) < 1) return undefined;
        const target = box === document.scrollingElement ? window : box;
        return new Promise<void>((resolve) => {
          target.addEventListener('scroll', () => setTimeout(resolve, 0), { once: true });
          setTimeout(resolve, 1000);
          box.scrollTo({ top });
        });
      }, percent);
    },
  },
  nextChunk: { verb: 'scrolled down', run: ({ element }) => scrollByChunk(need(element), 1) },
  prevChunk: { verb: 'scrolled up', run: ({ element }) => scrollByChunk(need(element), -1) },
  selectOptionFromDropdown: {
    verb: 'selected an option in',
    run: async ({ page, frame, element, args, timeoutMs }) => {
      const listed = await chooseListOption(page, frame, need(element), arg(args, 0), timeoutMs);
      if (listed) return listed;
      const which = await (need(element) as Locator).evaluate(optionIndex, arg(args, 0), { timeout: timeoutMs });
      if (typeof which === 'string') throw new ActionFailure(which);
      const selected = await need(element).selectOption(which === null ? arg(args, 0) : { index: which }, { timeout: timeoutMs });
      if (selected.length === 0) throw new ActionFailure('No option matches the given value or label');
      return { selected };
    },
  },
  check: {
    verb: 'checked',
    trustedInput: true,
    clicks: true,
    evaluatesOnly: true,
    run: async (target) => {
      await tick(target, true);
      return { checked: true };
    },
  },
  uncheck: {
    verb: 'unchecked',
    trustedInput: true,
    clicks: true,
    evaluatesOnly: true,
    run: async (target) => {
      await tick(target, false);
      return { checked: false };
    },
  },
  dragAndDrop: {
    verb: 'dragged',
    trustedInput: true,
    run: async ({ page, element, args, timeoutMs, resolve }) => {
      const drop = await resolve(arg(args, 0));
      if (!drop.found) throw new ActionFailure(`Drop target: ${drop.reason}`);
      await need(element).hover({ timeout: timeoutMs });
      await page.mouse.down();
      try {
        await drop.target.element.hover({ timeout: timeoutMs });
        await page.mouse.up();
      } finally {
        await drop.target.element.dispose().catch(() => undefined);
      }
    },
  },
  /** Files sent to the session (uploadFile), by name: a name it was not sent is refused, naming it. */
  setInputFiles: {
    verb: 'set files on',
    run: async ({ element, args, timeoutMs, files }) => {
      if (args.length === 0) throw new ActionFailure('setInputFiles needs the names of files sent to the session');
      const paths = await files(args).catch((error: unknown) => {
        throw isDeckhandError(error) ? new ActionFailure(`${error.message} (send it first: POST /v1/sessions/{id}/files)`) : error;
      });
      const names = paths.map((path) => basename(path));
      await checkFileField(need(element), names, timeoutMs);
      await need(element).setInputFiles(paths, { timeout: timeoutMs });
      return { files: names };
    },
  },
  /** Not one of the spec's 13: the page-level step the models answer "go back" with, so it can be replayed. */
  goBack: {
    pageLevel: true,
    verb: 'went back from',
    run: async ({ page, timeoutMs }) => {
      const before = page.url();
      // Commit is enough: the settle that follows waits for the document.
      const response = await page.goBack({ timeout: timeoutMs, waitUntil: 'commit' });
      // null means no navigation, unless only the fragment changed (same-document history).
      if (response === null && page.url() === before) throw new ActionFailure('There is no previous page to go back to');
    },
  },
} satisfies Record<ExecutorMethod, ActionMethod>;

/** What the models may choose (inference's list) plus goBack: a method missing here, or extra, fails typecheck. */
type ExecutorMethod = (typeof MODEL_ACTION_METHODS)[number] | typeof GO_BACK;

/** The handler of a method name from a request or a model, or undefined for an unknown one. */
export function actionMethod(name: string): ActionMethod | undefined {
  return Object.hasOwn(ACTION_METHODS, name) ? ACTION_METHODS[name as ExecutorMethod] : undefined;
}

/** One chunk is one viewport for the page, one visible height for an inner scroller. */
async function scrollByChunk(element: ActionElement, direction: 1 | -1): Promise<void> {
  await evaluateOn(element, (el, sign) => {
    const isPage = el === document.documentElement || el === document.body;
    const box = isPage ? document.scrollingElement! : el;
    box.scrollBy({ top: sign * (isPage ? window.innerHeight : el.clientHeight) });
  }, direction);
}

/** Runs fn on the element in the page (both kinds evaluate alike; their declared overloads do not unite). */
function evaluateOn(element: ActionElement, fn: (el: HTMLElement | SVGElement, arg: number) => void | Promise<void>, arg: number): Promise<void> {
  return (element as Locator).evaluate(fn, arg);
}

function need(element: ActionElement | undefined): ActionElement {
  if (!element) throw new ActionFailure('This method needs a selector');
  return element;
}

function arg(args: string[], index: number): string {
  const value = args[index];
  if (value === undefined) throw new ActionFailure(`Missing argument ${index + 1}`);
  return value;
}

/**
 * Ticks or unticks a checkbox, radio or `role=checkbox` element (or the control of a label) with our click
 * (pointer-click.ts), unless it already is as asked; whether the click held is the end state's to read.
 */
async function tick({ page, frame, element, query, timeoutMs }: ActionTarget, want: boolean): Promise<void> {
  const state = await (need(element) as Locator).evaluate((el) => {
    const control = el instanceof HTMLLabelElement && el.control ? el.control : el;
    if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) return control.checked;
    const aria = control.getAttribute('aria-checked');
    return aria === 'true' ? true : aria === 'false' || aria === 'mixed' ? false : null;
  });
  if (state === null) throw new ActionFailure('Not a checkbox or radio button: nothing was ticked');
  if (state !== want) await pointerClick(page, frame, need(element), timeoutMs, query);
}

/**
 * In the page: the index of the <select>'s option the words name: its label exactly, else its value exactly,
 * else its label but for case; several so named is refused (a string, why). null: no <select>, or none so
 * named (Playwright's selectOption answers).
 */
const optionIndex = pageFunction((el: Element, given: string): number | string | null => {
  if (!(el instanceof HTMLSelectElement)) return null;
  const options = [...el.options];
  for (const named of [options.filter((o) => o.label === given), options.filter((o) => o.value === given), options.filter((o) => o.label.toLowerCase() === given.toLowerCase())]) {
    if (named.length === 1) return named[0]!.index;
    if (named.length > 1) return `The dropdown has ${named.length} options named "${given}" (${named.map((o) => o.label).join(', ')}); nothing was selected`;
  }
  return null;
});
