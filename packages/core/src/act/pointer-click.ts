// A click with Playwright's actionability checks, in one evaluation and three mouse events: the element
// attached, visible, enabled, scrolled into view, in the same place over an animation frame, and the one a
// pointer at its click point hits, each waited for within the act's bound. Playwright's `click` does the
// same in about a dozen round trips (its evaluations, their releases, a scroll, the quads, the layout) and
// a stack trace for each: half the server's CPU for an Action act (bench/results/server-cpu.md). The press
// watch still judges where the press landed (click-landing.ts). An element in a child frame is clicked by
// Playwright: its point would have to be carried through the frames' offsets.
import type { Frame, Page } from 'playwright-core';
import { inPage, type PlainQuery } from '../selectors/index.js';
import { domFunctions, nativeDom, type NativeDom } from '../browser/page-hooks/input-hook.js';
import { describeElement } from './pinned-target.js';
import type { ActionElement } from './action-methods.js';
import { ActionFailure } from './action-failure.js';
import { isPageException, PAGE_SCRIPT_FAILURE } from '../errors.js';

/** Where to press, in the main frame's viewport, or why not yet. */
type Aim = { x: number; y: number } | { not: 'found' | 'attached' | 'visible' | 'enabled' | 'stable' | 'hit'; by?: string };

/** Waits between tries, as Playwright spaces its own (ms); the last repeats until the bound. */
const BACKOFF_MS = [0, 20, 100, 100, 500];
/** How much longer than a locator's own wait a try may take before the page counts as not answering. */
const LOCATOR_FIRST_MS = 250;
/** Where a try scrolls the element after another stood over it (a sticky header may cover it at one place). */
const ALIGNMENTS: ScrollLogicalPosition[] = ['center', 'end', 'start', 'nearest'];

/**
 * Clicks `element` in the page's main frame `frame`; another frame's element goes through Playwright's click.
 * `query`: the plain query of the locator's selector (resolve-target.ts), which the page answers in the
 * same evaluation as the aim, with no element handle made; an element it does not find is left to the locator.
 */
export async function pointerClick(page: Page, frame: Frame, element: ActionElement, timeoutMs: number, query?: PlainQuery): Promise<void> {
  if (frame !== page.mainFrame()) return element.click({ timeout: timeoutMs });
  const until = Date.now() + timeoutMs;
  let last: Aim | undefined;
  let byQuery = query !== undefined;
  for (let attempt = 0; ; attempt++) {
    const left = until - Date.now();
    if (left <= 0) throw new ActionFailure(reason(last));
    // After a try another element stood over it, scroll it to another place in the viewport.
    const align = last && 'not' in last && last.not === 'hit' ? ALIGNMENTS[attempt % ALIGNMENTS.length] : undefined;
    let aim: Aim | undefined = byQuery ? await answered(frame.evaluate(AIM_BY_QUERY, { query: query!, align }), left) : undefined;
    if (aim && 'not' in aim && aim.not === 'found') byQuery = false;
    if (!byQuery) aim = await answered('evaluateAll' in element ? element.evaluate(AIM, align, { timeout: left }) : element.evaluate(AIM, align), left);
    if ('x' in aim!) return page.mouse.click(aim.x, aim.y);
    last = aim;
    const pause = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, until - Date.now()))));
  }
}

/**
 * A try's answer within the bound. A page that never answers, or whose own script throws in the check,
 * is refused in our words (errors.ts: the page's exception is its own text, not for the caller); any
 * other failure (a navigation, a closed page, a locator's timeout) is left to the act.
 */
async function answered(attempt: Promise<Aim>, ms: number): Promise<Aim> {
  let timer: NodeJS.Timeout | undefined;
  // A little past the bound, so that a locator still waiting for its element times out first (the act then says it is missing).
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new ActionFailure('Element did not become actionable in time: the page did not answer the check')), ms + LOCATOR_FIRST_MS)));
  try {
    return await Promise.race([attempt, late]);
  } catch (error) {
    if (!isPageException(error)) throw error;
    throw new ActionFailure(`The element was not clicked: ${PAGE_SCRIPT_FAILURE}`);
  } finally {
    clearTimeout(timer);
  }
}

function reason(aim: Aim | undefined): string {
  if (!aim || 'x' in aim) return 'Element did not become actionable in time';
  // The words an act has always used for these states (action-failure.ts), and ours for the rest.
  const said: Record<typeof aim.not, string> = {
    found: 'Element did not become actionable in time: it is not in the page',
    attached: 'Element is no longer attached to the page',
    visible: 'Element is not visible',
    enabled: 'Element is disabled',
    stable: 'Element did not become actionable in time: it kept moving',
    hit: `Element did not become actionable in time: ${aim.by ?? 'another element'} stands over it and would take the click`,
  };
  return said[aim.not];
}

/**
 * Runs in the page (an inPage module): one try at aiming a pointer at the element (`align`: where to
 * scroll it, even when in view), with the browser's own DOM functions (`n`, the input hook's);
 * `shadowRootOf` and `describe` are the in-page library's.
 */
async function aimPointer(el: Element, align: ScrollLogicalPosition | undefined, n: NativeDom, shadowRootOf: (el: Element) => ShadowRoot | null, describe: (el: Element) => string): Promise<Aim> {
  if (!el.isConnected) return { not: 'attached' };
  const shown = (e: Element): boolean => {
    if (n.style(e).display === 'contents') return [...e.children].some(shown);
    const r = n.rect.call(e);
    return n.visible.call(e) && n.style(e).visibility === 'visible' && r.width > 0 && r.height > 0;
  };
  if (!shown(el)) return { not: 'visible' };
  if (n.closest.call(el, '[aria-disabled="true"]') || (n.matches.call(el, 'button, input, select, textarea, option, optgroup') && n.matches.call(el, ':disabled'))) return { not: 'enabled' };
  // What has the boxes: a display: contents element has none of its own, its first shown child has them.
  const boxed = (e: Element): Element => (n.style(e).display === 'contents' ? boxed([...e.children].find(shown)!) : e);
  const holder = boxed(el);
  // The rectangle pressed: the first of its boxes with an area (an inline element may wrap), else the whole.
  const box = () => [...n.rects.call(holder)].find((r) => r.width * r.height >= 1) ?? n.rect.call(holder);
  const inView = (r: DOMRect) => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  if (align || !inView(box())) n.scroll.call(holder, { block: align ?? 'center', inline: align ?? 'center', behavior: 'instant' });
  const before = box();
  await new Promise<void>((resolve) => n.frame(() => resolve()));
  if (!el.isConnected) return { not: 'attached' };
  const r = box();
  if (r.x !== before.x || r.y !== before.y || r.width !== before.width || r.height !== before.height) return { not: 'stable' };
  const x = (Math.max(0, r.left) + Math.min(innerWidth, r.right)) / 2;
  const y = (Math.max(0, r.top) + Math.min(innerHeight, r.bottom)) / 2;
  // What a pointer there hits, inside open and closed shadow roots; a click goes to the button or link it is part of.
  let hit = n.at.call(document, x, y);
  for (let inner = hit && innerAt(hit); inner && inner !== hit; inner = hit && innerAt(hit)) hit = inner;
  function innerAt(outer: Element): Element | null {
    const root = shadowRootOf(outer);
    return root ? n.atInShadow.call(root, x, y) : null;
  }
  const target = n.closest.call(el, 'button, [role=button], a, [role=link]') ?? el;
  for (let node: Node | null = hit, steps = 0; node && steps < 10_000; node = (node as Element).assignedSlot ?? n.parent.call(node) ?? (node as ShadowRoot).host ?? null, steps++) {
    if (node !== target) continue;
    // The press watch holds back a press that lands elsewhere after all (press-watch.ts).
    // The input hook listens again where document.open() erased its listeners.
    (window as unknown as { __deckhandInput?: { rearm(): void } }).__deckhandInput?.rearm();
    (window as unknown as { __deckhandPresses?: { aim(el: Element, hit: Element): void } }).__deckhandPresses?.aim(target, hit!);
    return { x, y };
  }
  return { not: 'hit', by: hit ? describe(hit) : undefined };
}

/** Runs in the page: the first element of a plain query (resolve-target.ts), or null. */
function queryPlain(query: PlainQuery, n: NativeDom): Element | null {
  try {
    const found = 'xpath' in query ? n.evaluate.call(document, query.xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue : n.query.call(document, query.css);
    return found instanceof Element ? found : null;
  } catch {
    return null;
  }
}

const AIM = inPage((el: Element, lib, align?: ScrollLogicalPosition) => lib.aimPointer(el, align, lib.nativeDom(), lib.shadowRootOf, lib.describeElement), { aimPointer, describeElement, nativeDom, domFunctions });

const AIM_BY_QUERY = inPage(
  async ({ query, align }: { query: PlainQuery; align?: ScrollLogicalPosition }, lib): Promise<Aim> => {
    const n = lib.nativeDom();
    const el = lib.queryPlain(query, n);
    return el ? lib.aimPointer(el, align, n, lib.shadowRootOf, lib.describeElement) : { not: 'found' };
  },
  { aimPointer, describeElement, queryPlain, nativeDom, domFunctions },
);
