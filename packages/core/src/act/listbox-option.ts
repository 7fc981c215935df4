// An ARIA listbox (role=listbox with role=option items) is no <select>: Playwright's selectOption refuses it,
// and a person chooses its option by clicking it. The option is the one whose text (or aria-label) is the label
// asked for, exactly or but for case; one disabled, or none so named, is refused before anything is clicked.
// An option already selected is not clicked again (a click would unselect it in a multi-select list).
// A combobox you type into (an <input role=combobox> whose list is aria-controls or aria-owns) shows its
// options once focused or typed into: it is clicked, then given the label when the option is not shown yet,
// and the option is clicked once the list shows it. A list that never shows it is refused with the field
// given back what it held.
import type { ElementHandle, Frame, JSHandle, Locator, Page } from 'playwright-core';
import { pageFunction } from '../selectors/in-page.js';
import { ActionFailure } from './action-failure.js';
import type { ActionElement } from './action-methods.js';
import type { EndState } from './end-state.js';
import { pointerClick } from './pointer-click.js';

/**
 * What the page answers: the option to click, or why not. null: no ARIA list (a native select's case);
 * hidden: a combobox whose option is not shown yet.
 */
type Found = Element | { refused: string } | { already: string } | { hidden: true; holds: string; shows: string[] } | null;

/** How often a combobox's list is looked at again while it fills in (ms). */
const POLL_MS = 50;
/** How long giving a combobox back what it held may take (ms). */
const RESTORE_MS = 1000;

/**
 * Chooses `label` in the listbox or combobox `element` by clicking its option, returning what it should
 * hold; undefined when `element` is neither (a <select> goes through selectOption).
 */
export async function chooseListOption(page: Page, frame: Frame, element: ActionElement, label: string, timeoutMs: number): Promise<EndState | undefined> {
  // The last of the bound is kept for giving the field back.
  const until = Date.now() + Math.max(timeoutMs / 2, timeoutMs - RESTORE_MS);
  const left = () => Math.max(1, until - Date.now());
  let found = await optionOf(element, label, timeoutMs);
  if (found === null) return undefined;
  const combobox = isHidden(found) || (await (element as Locator).evaluate((el: Element) => el.getAttribute('role') === 'combobox', undefined, { timeout: timeoutMs }));
  if (isHidden(found)) {
    const held = found.holds;
    await pointerClick(page, frame, element, left());
    found = await optionOf(element, label, left());
    if (isHidden(found)) await element.fill(label, { timeout: left() });
    while (isHidden(found) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      found = await optionOf(element, label, left());
    }
    if (isHidden(found)) {
      const restored = await element.fill(held, { timeout: RESTORE_MS }).then(() => true, () => false);
      const shows = found.shows.length > 0 ? ` (it showed ${found.shows.join(', ')})` : '';
      throw new ActionFailure(`The combobox's list never showed an option "${label}"${shows}; nothing was selected, and the field ${restored ? 'was given back what it held' : `still holds the typed "${label}"`}`);
    }
  }
  if (found !== null && 'refused' in found) throw new ActionFailure(found.refused);
  if (found !== null && 'already' in found) return { selected: [found.already] };
  const option = found as ElementHandle<Element>;
  try {
    const text = await option.evaluate((o: Element) => (o.getAttribute('aria-label') ?? o.textContent ?? '').replace(/\s+/g, ' ').trim());
    await pointerClick(page, frame, option, left());
    // A combobox shows its choice as its value; a list marks its option selected.
    return combobox ? { value: text } : { selected: [text] };
  } finally {
    void option.dispose().catch(() => undefined);
  }
}

function isHidden(found: ElementHandle<Element> | Exclude<Found, Element>): found is Extract<Found, { hidden: true }> {
  return found !== null && 'hidden' in found;
}

/** In the page: the option of `el`'s list named `label`, or what to answer instead. */
const findOption = pageFunction(
  (el: Element, label: string): Found => {
    const control = el instanceof HTMLLabelElement && el.control ? el.control : el;
    const role = control.getAttribute('role');
    if (control.localName === 'select' || (role !== 'listbox' && !(role === 'combobox' && control instanceof HTMLInputElement))) return null;
    const ids = (name: string) => (control.getAttribute(name) ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id));
    const box = role === 'listbox' ? control : ids('aria-controls').concat(ids('aria-owns')).find((b) => b?.getAttribute('role') === 'listbox');
    if (!box) return null;
    const owned = role === 'listbox' ? ids('aria-owns').filter((o) => o?.getAttribute('role') === 'option') : [];
    const options = [...box.querySelectorAll('[role=option]'), ...owned].filter((o): o is Element => o !== null);
    const text = (o: Element) => (o.getAttribute('aria-label') ?? o.textContent ?? '').replace(/\s+/g, ' ').trim();
    // A combobox's list counts only as shown: a hidden list's options cannot be clicked.
    const shown = role === 'listbox' ? options : options.filter((o) => (o as HTMLElement).checkVisibility?.() ?? true);
    const exact = shown.filter((o) => text(o) === label);
    const named = exact.length > 0 ? exact : shown.filter((o) => text(o).toLowerCase() === label.toLowerCase());
    if (named.length === 0 && role === 'combobox') return { hidden: true, holds: (control as HTMLInputElement).value, shows: shown.map(text).filter(Boolean).slice(0, 12) };
    if (named.length !== 1) {
      const listed = options.map(text).filter(Boolean).slice(0, 12).join(', ');
      return { refused: named.length === 0 ? `The list has no option "${label}" (its options: ${listed || 'none'}); nothing was selected` : `The list has ${named.length} options named "${label}"; nothing was selected` };
    }
    const option = named[0]!;
    if (option.getAttribute('aria-disabled') === 'true') return { refused: `The option "${label}" is disabled; nothing was selected` };
    return option.getAttribute('aria-selected') === 'true' && role === 'listbox' ? { already: text(option) } : option;
  },
);

/** The list's option named `label` (an element handle), or what the page answered instead. */
async function optionOf(element: ActionElement, label: string, timeoutMs: number): Promise<ElementHandle<Element> | Exclude<Found, Element>> {
  const handle: JSHandle<Found> = await (element as Locator).evaluateHandle(findOption, label, { timeout: timeoutMs });
  const option = handle.asElement();
  if (option) return option as ElementHandle<Element>;
  const answer = (await handle.jsonValue()) as Exclude<Found, Element>;
  void handle.dispose().catch(() => undefined);
  return answer;
}
