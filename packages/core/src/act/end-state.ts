// What an action leaves behind, read again once the page has settled: a page may undo it (an input
// handler cuts or clears the value, a change handler unticks the box or empties the file field,
// another control's handler resets a select, an editor (contenteditable) cuts or rewrites its text). An
// undone action is refused, naming what the page did.
import type { ElementHandle, Locator } from 'playwright-core';

export type EndState = { value: string } | { checked: boolean } | { selected: string[] } | { files: string[] };

/** Why the element no longer holds `want`, or undefined when it does (or is not a control this reads). */
export function endProblem(element: Locator | ElementHandle<Element>, want: EndState, timeoutMs: number): Promise<string | undefined> {
  // Both kinds of element evaluate alike; their declared overloads do not unite.
  return (element as Locator).evaluate((found: Element, want: EndState): string | undefined => {
    const el = found instanceof HTMLLabelElement ? (found.control ?? found) : found;
    if ('value' in want) {
      let holds: string;
      let typed: string;
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
        // What the control makes of the value itself (a text input drops line breaks, an email trims).
        const copy = document.createElement(el.localName) as HTMLInputElement;
        if (el.hasAttribute('type')) copy.setAttribute('type', el.getAttribute('type')!);
        copy.value = want.value;
        [holds, typed] = [el.value, copy.value];
      } else if (el instanceof HTMLElement && el.isContentEditable) {
        // An editor's text as a person reads it: Chromium ends its last block with a line break, and
        // shows a space at an edge as a no-break space.
        const plain = (text: string) => text.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ').replace(/\n+$/, '');
        [holds, typed] = [plain(el.innerText), plain(want.value)];
      } else return undefined;
      if (holds === typed) return undefined;
      // Lengths only: a variable's value is redacted whole from messages, never a piece of it.
      return holds === '' ? 'the page emptied the field after it was typed into' : `the page changed the field after it was typed into (it holds ${holds.length} characters, not the ${typed.length} typed)`;
    }
    if ('checked' in want) {
      if (!(el instanceof HTMLInputElement)) return undefined;
      return el.checked === want.checked ? undefined : `the page ${want.checked ? 'unchecked' : 'checked'} it again after it was ${want.checked ? 'checked' : 'unchecked'}`;
    }
    if ('selected' in want) {
      if (!(el instanceof HTMLSelectElement)) return undefined;
      const now = [...el.selectedOptions].map((o) => o.label || o.value);
      const values = [...el.selectedOptions].map((o) => o.value);
      return want.selected.every((v) => values.includes(v)) ? undefined : `the page changed its selection afterwards (it shows "${now.join(', ')}")`;
    }
    if (!(el instanceof HTMLInputElement)) return undefined;
    const names = [...(el.files ?? [])].map((f) => f.name);
    if (names.length === want.files.length && want.files.every((n) => names.includes(n))) return undefined;
    return names.length === 0 ? 'the page emptied the file field after the files were set' : `the page changed the file field afterwards (it holds ${names.join(', ')})`;
  }, want, { timeout: timeoutMs });
}
