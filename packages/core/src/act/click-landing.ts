// Whether a click-like action's click reached its element, when the page's watch saw the node pressed
// leave the press point before its release (press-watch.ts): Playwright reports success once it has sent
// the input, so a page that replaces or moves the element as it is pressed would pass for clicked.
// Only that rare case costs a round trip: the element is looked for in the click paths the page saw.
import { inPage } from '../selectors/index.js';
import type { PressOutcome } from '../dom/press-watch.js';
import type { ActionElement } from './action-methods.js';
import { describeElement } from './pinned-target.js';

interface Landing {
  /** The element acted on was in the path of a click of the press. */
  reached: boolean;
  /** What stands at the press point now, as a caller would recognise it. */
  there: string;
}

/**
 * Why the click did not reach the element (`chosen`, `verb`), or undefined when it did, or when nothing
 * says it could not have: the node pressed still under the pointer (a page acting on the press) is trusted.
 */
export async function missedClick(outcome: PressOutcome | undefined, element: ActionElement, chosen: string, verb: string): Promise<string | undefined> {
  if (outcome !== 'detached' && outcome !== 'moved') return undefined;
  // A locator is looked up as it stands now (a replacement in its place was not in the click's path); none found was not reached.
  const landing = 'evaluateAll' in element ? await element.evaluateAll(LANDING).catch(() => undefined) : await element.evaluate(LANDING).catch(() => undefined);
  if (!landing || landing.reached) return undefined;
  const what = outcome === 'detached' ? 'replaced (or removed) the element chosen' : 'moved the element chosen away from the pointer';
  return `The page ${what} (${chosen}) as it was pressed, so the click did not reach it; nothing was ${verb}. The press point now holds ${landing.there}, which was not acted on: read the page again and act on what it now shows`;
}

/** Runs in the frame: the element (any of a locator's matches) in a click path the watch kept, and what is at the press point. */
const LANDING = inPage(
  (found: Element | Element[], lib): Landing | undefined => {
    const elements = Array.isArray(found) ? found : [found];
    type Presses = { reached(el: Element): boolean; point(): { x: number; y: number } | undefined };
    const presses = (window as unknown as Record<string, Presses | undefined>)['__deckhandPresses'];
    const point = presses?.point();
    if (!presses || !point) return undefined;
    let hit = document.elementFromPoint(point.x, point.y);
    for (let inner = hit?.shadowRoot?.elementFromPoint(point.x, point.y); inner && inner !== hit; inner = hit?.shadowRoot?.elementFromPoint(point.x, point.y)) hit = inner;
    return { reached: elements.some((el) => presses.reached(el)), there: hit ? lib.describeElement(hit) : 'nothing' };
  },
  { describeElement },
);
