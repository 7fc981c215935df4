// A hand-built page snapshot in the outline format captureSnapshot produces, shared by the inference tests.
import type { PageSnapshot, SnapshotElement } from '../src/snapshot/types.js';

export const OUTLINE = `document "Shop settings"
  banner
    [1] link "Home" -> /
    [2] link "Pricing" -> /pricing
    [3] searchbox "Search" placeholder="Search products"
    [4] button "Search"
  main
    [5] heading "Account" level=1
    form "Login"
      "Sign in to continue"
      [6] textbox "Email" placeholder="you@example.com" required
      [7] textbox "Password" value="••••"
      [8] checkbox "Remember me" unchecked
      [9] button "Sign in"
    form "Preferences"
      [10] combobox "Country" selected="France" options="France | Germany | United States | United Kingdom"
      [11] radio "Monthly" checked
      [12] radio "Yearly" unchecked
      [13] checkbox "Subscribe to newsletter" checked
      [14] button "Save" disabled
    "Price: $19.99"
    table "Users"
      row "Name Email Actions"
        columnheader "Name"
        columnheader "Email"
        columnheader "Actions"
      row "Alice alice@example.com Delete"
        cell "Alice"
        cell "alice@example.com"
        cell "Delete"
          [15] button "Delete"
      row "Bob bob@example.com Delete"
        cell "Bob"
        cell "bob@example.com"
        cell "Delete"
          [16] button "Delete"
    [17] region "Results" scrollable
      "No results yet"
    [18] link "Read the docs" -> https://docs.example.com/start
    [19] textbox "Notes"
    [20] button "Help"
    [21] link "Help" -> /help
  contentinfo
    [22] link "Privacy policy" -> /privacy`;

const el = (id: string, role: string, name: string, tag: string, extra: Partial<SnapshotElement> = {}): SnapshotElement => ({
  id,
  role,
  name,
  tag,
  xpath: `/html/body//*[${id}]`,
  ...extra,
});

export const ELEMENTS = [
  el('1', 'link', 'Home', 'a', { href: '/' }),
  el('2', 'link', 'Pricing', 'a', { href: '/pricing' }),
  el('3', 'searchbox', 'Search', 'input', { placeholder: 'Search products' }),
  el('4', 'button', 'Search', 'button'),
  el('5', 'heading', 'Account', 'h1'),
  el('6', 'textbox', 'Email', 'input', { placeholder: 'you@example.com', required: true }),
  el('7', 'textbox', 'Password', 'input', { value: '••••' }),
  el('8', 'checkbox', 'Remember me', 'input', { checked: false }),
  el('9', 'button', 'Sign in', 'button'),
  el('10', 'combobox', 'Country', 'select', { selected: 'France', options: ['France', 'Germany', 'United States', 'United Kingdom'] }),
  el('11', 'radio', 'Monthly', 'input', { checked: true }),
  el('12', 'radio', 'Yearly', 'input', { checked: false }),
  el('13', 'checkbox', 'Subscribe to newsletter', 'input', { checked: true }),
  el('14', 'button', 'Save', 'button', { disabled: true }),
  el('15', 'button', 'Delete', 'button'),
  el('16', 'button', 'Delete', 'button'),
  el('17', 'region', 'Results', 'div', { scrollable: true }),
  el('18', 'link', 'Read the docs', 'a', { href: 'https://docs.example.com/start' }),
  el('19', 'textbox', 'Notes', 'textarea'),
  el('20', 'button', 'Help', 'button'),
  el('21', 'link', 'Help', 'a', { href: '/help' }),
  el('22', 'link', 'Privacy policy', 'a', { href: '/privacy' }),
];

export const snapshot: PageSnapshot = {
  text: OUTLINE,
  elements: new Map(ELEMENTS.map((e) => [e.id, e])),
  truncated: false,
  tokens: 400,
  url: 'https://shop.example.com/settings?tab=account',
};
