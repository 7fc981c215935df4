// Kinds of element: what an action needs of its target (something to type into, to tick, to
// expand…) and what an instruction names ("the … button", "the … menu"). An instruction that names
// a kind is never answered with an element of another kind.
import type { SnapshotElement } from '../../snapshot/types.js';

/** What the action needs of its target. */
export type Need = 'click' | 'edit' | 'select' | 'toggle' | 'expand' | 'hover' | 'scroll' | 'any';

const EDITABLE_ROLES = new Set(['textbox', 'searchbox', 'spinbutton']);
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

export const isEditable = (e: SnapshotElement) =>
  EDITABLE_ROLES.has(e.role) || (e.role === 'combobox' && e.tag === 'input') || e.tag === 'textarea';
export const isSelectable = (e: SnapshotElement) => ['combobox', 'listbox'].includes(e.role) && !isEditable(e);
export const isCheckable = (e: SnapshotElement) => CHECKABLE_ROLES.has(e.role);
/** A combobox typed into that says it opens (aria-expanded): it has a list to choose from (act/listbox-option.ts). */
export const opensList = (e: SnapshotElement) => e.role === 'combobox' && e.tag === 'input' && e.expanded !== undefined;

const NEEDS: Record<Need, (e: SnapshotElement) => boolean> = {
  click: (e) => !['heading', 'iframe', 'document'].includes(e.role) && e.tag !== 'iframe',
  edit: isEditable,
  // "pick Paris from City" chooses an option of a combobox typed into, never just types the words.
  select: (e) => isSelectable(e) || opensList(e),
  toggle: (e) => isCheckable(e) || e.pressed !== undefined,
  expand: (e) => e.expanded !== undefined,
  hover: (e) => e.role !== 'iframe' && e.tag !== 'iframe',
  scroll: (e) => e.scrollable === true,
  any: () => true,
};

export function fitsNeed(e: SnapshotElement, need: Need): boolean {
  return NEEDS[need](e);
}

/** A kind an instruction can name. */
export type NamedKind = 'button' | 'link' | 'field' | 'box' | 'checkbox' | 'radio' | 'switch' | 'dropdown' | 'menu' | 'menuitem' | 'tab' | 'option' | 'heading' | 'slider' | 'spinner' | 'textbox' | 'textarea';

interface KindRule {
  /** What the kind is. */
  strict: (e: SnapshotElement) => boolean;
  /** What people also call by the kind's name (a link styled as a button is "the … button"). */
  lenient?: (e: SnapshotElement) => boolean;
  label: string;
}

const opensPopup = (e: SnapshotElement) => e.popup !== undefined;

export const KINDS: Record<NamedKind, KindRule> = {
  button: { strict: (e) => e.role === 'button', lenient: (e) => e.role === 'link' || (e.role === 'generic' && e.clickable === true), label: 'button' },
  link: { strict: (e) => e.role === 'link', label: 'link' },
  field: { strict: isEditable, label: 'text field' },
  /** "the search box", "the remember me box": a field or a box to tick. */
  box: { strict: (e) => isEditable(e) || isCheckable(e), label: 'box' },
  checkbox: { strict: (e) => e.role === 'checkbox' || e.role === 'menuitemcheckbox', lenient: (e) => e.role === 'switch', label: 'checkbox' },
  radio: { strict: (e) => e.role === 'radio' || e.role === 'menuitemradio', label: 'radio button' },
  switch: { strict: (e) => e.role === 'switch', lenient: (e) => e.role === 'checkbox' || e.pressed !== undefined, label: 'switch' },
  /** A control that opens a list, a menu, a calendar or a grid is what people call a dropdown or a picker. */
  dropdown: { strict: isSelectable, lenient: (e) => e.popup !== undefined, label: 'dropdown' },
  menu: {
    strict: (e) => ['menu', 'menubar'].includes(e.role) || opensPopup(e) || (e.hoverable === true && !isEditable(e)),
    lenient: (e) => e.role.startsWith('menuitem'),
    label: 'menu',
  },
  menuitem: { strict: (e) => e.role.startsWith('menuitem'), lenient: (e) => e.role === 'option', label: 'menu item' },
  tab: { strict: (e) => e.role === 'tab', label: 'tab' },
  option: { strict: (e) => ['radio', 'option', 'menuitemradio'].includes(e.role), label: 'option' },
  heading: { strict: (e) => e.role === 'heading', label: 'heading' },
  slider: { strict: (e) => e.role === 'slider', label: 'slider' },
  spinner: { strict: (e) => e.role === 'spinbutton', label: 'spinner' },
  /** "the textbox" is a one-line text input before it is a text area or a number field. */
  textbox: { strict: (e) => isEditable(e) && e.tag !== 'textarea' && e.role !== 'spinbutton', lenient: isEditable, label: 'text field' },
  textarea: { strict: (e) => e.tag === 'textarea', lenient: isEditable, label: 'text area' },
};

/** Words for each kind, longest first within the list so "radio button" is a radio, not a button. */
export const KIND_WORDS: Array<[string, NamedKind]> = [
  ['radio button', 'radio'],
  ['spin button', 'spinner'],
  ['check box', 'checkbox'],
  ['tick box', 'checkbox'],
  ['text box', 'textbox'],
  ['text field', 'field'],
  ['text area', 'textarea'],
  ['input field', 'field'],
  ['input box', 'field'],
  ['select box', 'dropdown'],
  ['combo box', 'dropdown'],
  ['list box', 'dropdown'],
  ['menu item', 'menuitem'],
  ['radio', 'radio'],
  ['checkbox', 'checkbox'],
  ['tickbox', 'checkbox'],
  ['textbox', 'textbox'],
  ['textfield', 'field'],
  ['textarea', 'textarea'],
  ['input', 'field'],
  ['field', 'field'],
  ['box', 'box'],
  ['button', 'button'],
  ['btn', 'button'],
  ['link', 'link'],
  ['hyperlink', 'link'],
  ['dropdown', 'dropdown'],
  ['combobox', 'dropdown'],
  ['listbox', 'dropdown'],
  ['picker', 'dropdown'],
  ['selector', 'dropdown'],
  ['switch', 'switch'],
  ['spinbutton', 'spinner'],
  ['spinner', 'spinner'],
  ['toggle', 'switch'],
  ['tab', 'tab'],
  ['menuitem', 'menuitem'],
  ['submenu', 'menu'],
  ['menu', 'menu'],
  ['option', 'option'],
  ['choice', 'option'],
  ['heading', 'heading'],
  ['headline', 'heading'],
  ['slider', 'slider'],
];

/** What a need is called in messages ("No text field on the page matches …"). */
export const NEED_LABELS: Record<Need, string> = {
  click: 'element',
  edit: 'text field',
  select: 'dropdown',
  toggle: 'checkbox or radio button',
  expand: 'expandable element',
  hover: 'element',
  scroll: 'scrollable element',
  any: 'element',
};
