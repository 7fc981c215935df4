// In-page (shipped as source by inPage: nothing here may use an import when it runs): the walk's
// limits, the element sets it decides by, and the small helpers every part of the walk shares.

export function walkRules() {
  const MAX_NAME = 100;
  const MAX_TEXT = 300;
  const MAX_CONTEXT = 300;
  /** Nodes read of a region before it counts as too large to be one control's surroundings. */
  const MAX_CONTEXT_NODES = 150;
  /** A generic element that takes clicks or hovers is named by its text when the text is this short. */
  const MAX_CONTENT_NAME = 80;
  const MAX_OPTIONS = 10;
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base', 'br', 'wbr', 'datalist', 'param', 'source', 'track']);
  const INTERACTIVE = new Set(['link', 'button', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'slider', 'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'gridcell', 'scrollbar', 'iframe']);
  // Roles whose accessible name comes from their content; their text is not repeated as lines.
  const NAME_FROM_CONTENT = new Set(['link', 'button', 'heading', 'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'switch', 'tooltip', 'checkbox', 'radio', 'cell', 'columnheader', 'rowheader', 'gridcell', 'legend', 'caption']);
  // Containers worth a line even with a single child.
  const LANDMARKS = new Set(['navigation', 'main', 'banner', 'contentinfo', 'complementary', 'form', 'search', 'region', 'dialog', 'alertdialog', 'alert', 'tablist', 'menu', 'menubar', 'toolbar', 'tree', 'grid', 'radiogroup']);
  // Containers worth a line only when they group two or more lines.
  const GROUPS = new Set(['list', 'table', 'row', 'group', 'rowgroup']);
  // Block boxes separate words when their text is joined into a name.
  const BLOCK = new Set(['div', 'p', 'li', 'td', 'th', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article']);
  const TEXT_INPUT_PLAIN = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'hidden']);
  // One entry of a list, table or feed: what lies beyond it belongs to other entries.
  const ITEMS = new Set(['li', 'tr', 'article', 'dt', 'dd']);
  const ITEM_ROLES = new Set(['listitem', 'row', 'article', 'option', 'treeitem']);
  const BOUNDARY_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'main', 'form', 'dialog', 'alertdialog', 'search', 'region', 'toolbar', 'menu', 'menubar', 'tablist', 'group', 'radiogroup']);
  const TEXT_INPUTS = new Set(['', 'text', 'email', 'tel', 'url', 'search', 'password', 'number', 'date', 'datetime-local', 'month', 'week', 'time', 'color']);

  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1) + '…' : s);

  /** What unrendered has said of each element in this walk: names and surroundings read the same elements again, and the page does not change during one walk. */
  const unrenderedSeen = new Map<Element, boolean>();

  /** Whether an element's box is not rendered (display:none, a closed submenu). offsetParent is null for those (and for fixed boxes), so only then are the costlier box and style read. */
  function unrendered(el: Element): boolean {
    let seen = unrenderedSeen.get(el);
    if (seen === undefined) {
      seen = (el as HTMLElement).offsetParent === null && el.getClientRects().length === 0 && getComputedStyle(el).display !== 'contents';
      unrenderedSeen.set(el, seen);
    }
    return seen;
  }

  /** An element's parent, stepping out of a shadow root to its host. */
  function parentOf(el: Element): Element | null {
    const p = el.parentNode;
    if (!p) return null;
    return p.nodeType === 11 ? (p as ShadowRoot).host : p.nodeType === 1 ? (p as Element) : null;
  }

  /** Links, buttons, fields and elements with a widget role. */
  function isControl(el: Element, tag: string): boolean {
    if (tag === 'button' || tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'summary' || (tag === 'a' && el.hasAttribute('href'))) return true;
    const role = el.getAttribute('role');
    return role !== null && INTERACTIVE.has(role.trim().split(/\s+/)[0]!);
  }

  /** Whether a visible control lies inside: then the listener belongs to a container, not to a control of its own. */
  function holdsControls(el: Element): boolean {
    for (const d of el.querySelectorAll('a[href],button,input,select,textarea,[role],[onclick],[tabindex]')) if (d.getClientRects().length) return true;
    return false;
  }

  function triState(v: string | null): boolean | 'mixed' | undefined {
    return v === 'true' ? true : v === 'false' ? false : v === 'mixed' ? 'mixed' : undefined;
  }

  return {
    MAX_NAME, MAX_TEXT, MAX_CONTEXT, MAX_CONTEXT_NODES, MAX_CONTENT_NAME, MAX_OPTIONS,
    SKIP, INTERACTIVE, NAME_FROM_CONTENT, LANDMARKS, GROUPS, BLOCK, TEXT_INPUT_PLAIN, ITEMS, ITEM_ROLES, BOUNDARY_ROLES, TEXT_INPUTS,
    squash, clip, unrendered, parentOf, isControl, holdsControls, triState,
  };
}

export type WalkRules = ReturnType<typeof walkRules>;
