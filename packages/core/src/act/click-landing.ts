// Whether a click-like action's click reached its element, when the page's watch saw the node pressed
// leave the press point, leave its document or be covered before its release (press-watch.ts): Playwright
// reports success once it has sent the input, so a page that replaces, moves or covers the element as it
// is pressed would pass for clicked. Only those rare cases cost a round trip: the element is looked for
// in the click paths the page saw.
import { inPage } from '../selectors/index.js';
import { elementAtPoint, type PressOutcome } from '../dom/press-watch.js';
import type { ActionElement } from './action-methods.js';
import { describeElement } from './pinned-target.js';

interface Landing {
  /** The element acted on was in the path of a click of the press. */
  reached: boolean;
  /** The element (or the node pressed inside it) waits for a click or release of its own (docs/decisions.md, "A click that never landed"). */
  awaited: boolean;
  /** What stands at the press point now, as a caller would recognise it. */
  there: string;
}

const DID: Partial<Record<PressOutcome, string>> = {
  detached: 'replaced (or removed) the element chosen',
  moved: 'moved the element chosen away from the pointer',
  displaced: 'took the element chosen out of the document and put it back',
  covered: 'covered the element chosen with another',
  intercepted: 'put another element over the element chosen',
  redirected: 'sent the press on the element chosen to another element',
};

/**
 * Why the click did not reach the element (`chosen`, `verb`), or undefined when it did, or when nothing
 * says it could not have: the node pressed still holding the press point (a page acting on the press) is
 * trusted, and so is one covered when nothing in it waits for the click (a menu opened over its button).
 */
export async function missedClick(outcome: PressOutcome | undefined, element: ActionElement, chosen: string, verb: string): Promise<string | undefined> {
  const did = outcome && DID[outcome];
  if (!did) return undefined;
  // A locator is looked up as it stands now (a replacement in its place was not in the click's path); none found was not reached.
  const landing = 'evaluateAll' in element ? await element.evaluateAll(LANDING).catch(() => undefined) : await element.evaluate(LANDING).catch(() => undefined);
  // A press the watch held back (or never heard: it went to another document) reached nothing, whatever the look finds.
  const heldBack = outcome === 'intercepted' || outcome === 'redirected';
  if (!heldBack && (!landing || landing.reached || (outcome === 'covered' && !landing.awaited))) return undefined;
  return `The page ${did} (${chosen}) as it was pressed, so the click did not reach it; nothing was ${verb}. The press point now holds ${landing?.there ?? 'something else'}, which was not acted on: read the page again and act on what it now shows`;
}

/**
 * Runs in the frame: the element (any of a locator's matches) in a click path the watch kept, whether it
 * waits for a click, and what is at the press point.
 */
const LANDING = inPage(
  (found: Element | Element[], lib): Landing | undefined => {
    const elements = Array.isArray(found) ? found : [found];
    type Presses = { reached(el: Element): boolean; point(): { x: number; y: number } | undefined; pressed(): Node | undefined };
    const presses = (window as unknown as Record<string, Presses | undefined>)['__deckhandPresses'];
    const point = presses?.point();
    if (!presses || !point) return undefined;
    const hit = lib.elementAtPoint(point.x, point.y);
    // A click or release listener of its own (bit 4 of the listener hook, or a handler property), or a
    // default action of the click (a link, a submit button, a form control, a label, a summary). Listeners
    // above the element (a framework's root, a page's click-outside) do not count: every element has them.
    const awaits = (el: Element) => {
      const on = el as HTMLElement;
      return (lib.pointerListenersOf(el) & 4) !== 0 || on.onclick !== null || on.onmouseup !== null || on.onpointerup !== null
        || el.matches('a[href], area[href], label, summary, input:is([type=checkbox], [type=radio], [type=submit], [type=reset], [type=image], [type=file])')
        || (el instanceof HTMLButtonElement && el.form !== null && el.type !== 'button');
    };
    // From the node pressed up to the element acted on; the element alone when the press was not inside it.
    const chain: Element[] = [];
    for (let node = presses.pressed() ?? null; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null) {
      if (node instanceof Element) chain.push(node);
      if (elements.includes(node as Element)) break;
    }
    const within = elements.some((el) => chain.includes(el)) ? chain : elements;
    return { reached: elements.some((el) => presses.reached(el)), awaited: within.some(awaits), there: hit ? lib.describeElement(hit) : 'nothing' };
  },
  { describeElement, elementAtPoint },
);
