// What the model reads of a page: a text outline plus the element table its short ids point into.

export interface SnapshotElement {
  /** Short id as printed in the outline, e.g. "12" for a line starting with "[12]". */
  id: string;
  /** ARIA role (explicit or implicit): button, link, textbox, checkbox, combobox, option, heading, … */
  role: string;
  /** Accessible name. */
  name: string;
  /** Lower-case tag name. */
  tag: string;
  /** Deep XPath (see docs/selectors.md): crosses iframes and open/closed shadow roots; replayable. */
  xpath: string;
  /** Current value of a field; "••••" when masked (password fields, values that came from variables). */
  value?: string;
  checked?: boolean | 'mixed';
  /** Toggle buttons (aria-pressed). */
  pressed?: boolean | 'mixed';
  /** Selected option label(s) of a select / listbox. */
  selected?: string;
  /** Option labels of a select (the first few, then a "…N more" entry). */
  options?: string[];
  /** Selected within its widget (aria-selected: tab, option, treeitem) or aria-current. */
  current?: boolean;
  expanded?: boolean;
  disabled?: boolean;
  required?: boolean;
  /** Link target as a short path (same origin) or full URL. */
  href?: string;
  placeholder?: string;
  /** Scrollable container (overflow with content larger than the box). */
  scrollable?: boolean;
  /** A generic element that takes clicks (onclick, a click listener, or cursor:pointer not inherited from a parent). */
  clickable?: boolean;
  /** Reacts to the pointer entering it (mouseenter/mouseover handlers): a hover menu, a tooltip. */
  hoverable?: boolean;
  /** aria-haspopup: the kind of popup it opens (menu, listbox, dialog, …). */
  popup?: string;
  /** Text of the row, card or list item around the element, with field labels; not in the outline. Read for a snapshot that serves an instruction (SnapshotOptions.context). */
  context?: string;
  /** An input's type when it says what the field holds: email, password, date, tel, …; not in the outline. */
  inputType?: string;
  /** Behind a modal overlay that takes the clicks; not in the outline. */
  covered?: boolean;
  /** Heading level. */
  level?: number;
  /** CDP's backend node id, when the snapshot was asked for it (SnapshotOptions.backendNodeIds); not in the outline. */
  backendNodeId?: number;
}

export interface PageSnapshot {
  /** The outline the model reads; element lines start with "[id]". */
  text: string;
  /** id → element. */
  elements: Map<string, SnapshotElement>;
  /** True when the page was larger than the token budget and the outline was cut. */
  truncated: boolean;
  /** Estimated tokens of `text`. */
  tokens: number;
  url: string;
}
