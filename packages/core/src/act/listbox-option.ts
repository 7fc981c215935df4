// An ARIA listbox (role=listbox with role=option items) is no <select>: Playwright's selectOption refuses it,
// and a person chooses its option by clicking it. The option is the one whose text (or aria-label) is the label
// asked for, exactly or but for case; one disabled, or none so named, is refused before anything is clicked.
// An option already selected is not clicked again (a click would unselect it in a multi-select list).
import type { ElementHandle, Frame, JSHandle, Locator, Page } from 'playwright-core';
import { ActionFailure } from './action-failure.js';
import type { ActionElement } from './action-methods.js';
import { pointerClick } from './pointer-click.js';

/** What the page answers for a listbox: its option to click, or why not (null: no listbox, a native select's case). */
type Found = Element | { refused: string } | { already: true } | null;

/**
 * Chooses `label` in the listbox `element` by clicking its option; false when `element` is no ARIA listbox
 * (a <select> goes through selectOption).
 */
export async function chooseListboxOption(page: Page, frame: Frame, element: ActionElement, label: string, timeoutMs: number): Promise<boolean> {
  // Runs in the page: the listbox's option named `label`.
  const handle: JSHandle<Found> = await (element as Locator).evaluateHandle((el: Element, label: string): Found => {
    const box = el instanceof HTMLLabelElement && el.control ? el.control : el;
    if (box.localName === 'select' || box.getAttribute('role') !== 'listbox') return null;
    const owned = (box.getAttribute('aria-owns') ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id));
    const options = [...box.querySelectorAll('[role=option]'), ...owned.filter((o): o is HTMLElement => o?.getAttribute('role') === 'option')];
    const text = (o: Element) => (o.getAttribute('aria-label') ?? o.textContent ?? '').replace(/\s+/g, ' ').trim();
    const exact = options.filter((o) => text(o) === label);
    const named = exact.length > 0 ? exact : options.filter((o) => text(o).toLowerCase() === label.toLowerCase());
    if (named.length !== 1) {
      const listed = options.map(text).filter(Boolean).slice(0, 12).join(', ');
      return { refused: named.length === 0 ? `The list has no option "${label}" (its options: ${listed || 'none'}); nothing was selected` : `The list has ${named.length} options named "${label}"; nothing was selected` };
    }
    const option = named[0]!;
    if (option.getAttribute('aria-disabled') === 'true') return { refused: `The option "${label}" is disabled; nothing was selected` };
    return option.getAttribute('aria-selected') === 'true' ? { already: true } : option;
  }, label, { timeout: timeoutMs });
  try {
    const option = handle.asElement();
    if (option) {
      await pointerClick(page, frame, option as ElementHandle<Element>, timeoutMs);
      return true;
    }
    const found = (await handle.jsonValue()) as Exclude<Found, Element>;
    if (found === null) return false;
    if ('refused' in found) throw new ActionFailure(found.refused);
    return true;
  } finally {
    void handle.dispose().catch(() => undefined);
  }
}
