// What an action leaves behind, read again once the page has settled: a page may undo it (an input
// handler cuts or clears the value, a change handler unticks the box or empties the file field,
// another control's handler resets a select, an editor (contenteditable) cuts or rewrites its text, a
// re-render replaces the field with one holding something else). An undone action is refused, naming what
// the page did.
import type { ElementHandle, Locator } from 'playwright-core';
import { isPageException, PAGE_SCRIPT_FAILURE } from '../errors.js';
import { pageFunction } from '../selectors/in-page.js';

/**
 * value: a fill, the field holds exactly it. typed: keys typed at the caret (the `type` method), the
 * field holds them in a row somewhere in its text (what was there before is not known).
 */
export type EndState = { value: string } | { typed: string } | { checked: boolean } | { selected: string[] } | { files: string[] };

/**
 * Why the element no longer holds `want`, or undefined when it does (or is not a control this reads).
 * An element the page took out of the document (a re-render replaced it) is read through `reread`, the
 * element now in its place; with none given it tells nothing.
 */
export async function endProblem(
  element: Locator | ElementHandle<Element>,
  want: EndState,
  timeoutMs: number,
  reread?: () => Promise<string | undefined>,
): Promise<string | undefined> {
  // Both kinds of element evaluate alike; their declared overloads do not unite.
  let problem: string | undefined | null;
  try {
    problem = await (element as Locator).evaluate(readProblem, want, { timeout: timeoutMs });
  } catch (error) {
    // A read back that a script broke says nothing held: never taken as "nothing to say" (a navigation or a timeout is).
    if (isPageException(error)) return `it could not be read back: ${PAGE_SCRIPT_FAILURE}`;
    throw error;
  }
  return problem === null ? reread?.() : problem;
}

/** In the page: why `found` no longer holds `want`; null when it is out of the document. */
const readProblem = pageFunction((found: Element, want: EndState): string | undefined | null => {
  if (!found.isConnected) return null;
  const el = found instanceof HTMLLabelElement ? (found.control ?? found) : found;
  if ('value' in want || 'typed' in want) {
    const given = 'value' in want ? want.value : want.typed;
    let holds: string;
    let typed: string;
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      // Keys typed into a date, number or other native field go into its parts, not its value as written.
      if ('typed' in want && el instanceof HTMLInputElement && !['text', 'search', 'email', 'url', 'tel', 'password'].includes(el.type)) return undefined;
      // What the control makes of the value itself (a text input drops line breaks, an email trims).
      const copy = document.createElement(el.localName) as HTMLInputElement;
      // Its range too: a slider's copy would clamp 150 to the default 0..100.
      for (const name of ['type', 'min', 'max', 'step']) if (el.hasAttribute(name)) copy.setAttribute(name, el.getAttribute(name)!);
      copy.value = given;
      [holds, typed] = [el.value, copy.value];
    } else if (el instanceof HTMLElement && el.isContentEditable) {
      // An editor's text as a person reads it: Chromium ends its last block with a line break, and
      // shows a space at an edge as a no-break space.
      const plain = (text: string) => text.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ').replace(/\n+$/, '');
      [holds, typed] = [plain(el.innerText), plain(given)];
    } else if (el.getAttribute('role') === 'slider' && 'value' in want) {
      // A slider without an input holds its value in aria-valuenow (aria-slider.ts).
      const now = el.getAttribute('aria-valuenow') ?? '';
      return Number(now) === Number(given) ? undefined : `the page moved the slider after it was set (it holds ${now || 'no value'}, not ${given})`;
    } else return undefined;
    if ('value' in want ? holds === typed : holds.includes(typed)) return undefined;
    // Lengths only: a variable's value is redacted whole from messages, never a piece of it.
    if (holds === '') return 'the page emptied the field after it was typed into';
    return 'value' in want
      ? `the page changed the field after it was typed into (it holds ${holds.length} characters, not the ${typed.length} typed)`
      : `the page changed the field after it was typed into (the ${typed.length} characters typed are not in the ${holds.length} it holds)`;
  }
  if ('checked' in want) {
    if (!(el instanceof HTMLInputElement)) return undefined;
    return el.checked === want.checked ? undefined : `the page ${want.checked ? 'unchecked' : 'checked'} it again after it was ${want.checked ? 'checked' : 'unchecked'}`;
  }
  if ('selected' in want) {
    if (el.getAttribute('role') === 'listbox' && !(el instanceof HTMLSelectElement)) {
      // An ARIA list shows its choice by aria-selected; one that marks none of its options tells nothing.
      const options = [...el.querySelectorAll('[role=option]')];
      if (!options.some((o) => o.hasAttribute('aria-selected'))) return undefined;
      const text = (o: Element) => (o.getAttribute('aria-label') ?? o.textContent ?? '').replace(/\s+/g, ' ').trim();
      const shown = options.filter((o) => o.getAttribute('aria-selected') === 'true');
      if (want.selected.every((v) => shown.some((o) => text(o).toLowerCase() === v.toLowerCase()))) return undefined;
      return `the list does not show it selected after its option was clicked (it shows "${shown.map(text).join(', ') || 'none'}")`;
    }
    if (!(el instanceof HTMLSelectElement)) return undefined;
    const now = [...el.selectedOptions].map((o) => o.label || o.value);
    const values = [...el.selectedOptions].map((o) => o.value);
    return want.selected.every((v) => values.includes(v)) ? undefined : `the page changed its selection afterwards (it shows "${now.join(', ')}")`;
  }
  if (!(el instanceof HTMLInputElement)) return undefined;
  const names = [...(el.files ?? [])].map((f) => f.name);
  if (names.length === want.files.length && want.files.every((n) => names.includes(n))) return undefined;
  return names.length === 0 ? 'the page emptied the file field after the files were set' : `the page changed the file field afterwards (it holds ${names.join(', ')})`;
});
