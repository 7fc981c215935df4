// The in-page half of the snapshot: one pass over a frame's rendered tree (light DOM, open and
// closed shadow roots, slots) that yields the outline's nodes in document order. It computes
// roles, accessible names and element state cheaply instead of asking CDP for the AX tree, which
// is what makes it faster than the accessibility-tree route. Child frames are not entered: the
// caller walks each frame with its own evaluate and stitches them under the owner's node.

import type { InPageLib } from '../selectors/index.js';

export interface WalkArgs {
  /** Owner elements (<iframe>, <frame>) of this frame's child frames; a node's `frame` indexes this. */
  frameOwners: Element[];
  /** Walk only this subtree (options.selector); the whole document when absent. */
  root?: Element | null;
}

/** One outline line: an element (has `role`) or a text run (has `text`). */
export interface WalkNode {
  depth: number;
  role?: string;
  text?: string;
  name?: string;
  /** Deep XPath inside this frame; set on elements that get an id. */
  xpath?: string;
  tag?: string;
  /** Gets a short id: actionable, scrollable, heading or frame owner. */
  ref?: 1;
  /** Intersects this frame's viewport. */
  inView?: 1;
  value?: string;
  /** A password field with a value; the value itself is not reported. */
  secret?: 1;
  checked?: boolean | 'mixed';
  pressed?: boolean | 'mixed';
  selected?: string;
  options?: string[];
  current?: 1;
  expanded?: boolean;
  disabled?: 1;
  required?: 1;
  href?: string;
  placeholder?: string;
  scrollable?: 1;
  clickable?: 1;
  /** Reacts to the pointer entering it (mouseenter/mouseover handlers): a hover menu, a tooltip. */
  hoverable?: 1;
  /** aria-haspopup: the kind of popup it opens (menu, listbox, dialog, …). */
  popup?: string;
  /** Text of the row, card or list item around the element, with field labels (not printed; for matching). */
  context?: string;
  /** An input's type when it says what the field holds: email, password, date, tel, … (not printed). */
  inputType?: string;
  /** Behind a modal overlay that takes the clicks (not printed; for matching). */
  covered?: 1;
  level?: number;
  /** Index into WalkArgs.frameOwners: this node owns a child frame. */
  frame?: number;
}

export interface WalkResult {
  title: string;
  nodes: WalkNode[];
  scrollY: number;
  scrollHeight: number;
  viewportHeight: number;
}

/** In-page, self-contained (see in-page.ts). Returns JSON of a WalkResult: one string crosses CDP faster than a deep object. */
export function walkFrame(args: WalkArgs, lib: InPageLib): string {
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

  type Line = WalkNode & { kids?: Line[] };
  const owners = args.frameOwners;
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  // srcdoc and about:blank frames link relative to their parent's URL, which baseURI reflects.
  const origin = new URL(document.baseURI).origin;
  const here = location.href.split('#')[0];

  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1) + '…' : s);

  function implicitRole(el: Element, tag: string): string {
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href') ? 'link' : '';
      case 'button':
        return 'button';
      case 'input': {
        const type = ((el as HTMLInputElement).getAttribute('type') ?? '').toLowerCase();
        if (type === 'checkbox' || type === 'radio') return type;
        if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image' || type === 'file') return 'button';
        if (type === 'search') return 'searchbox';
        if (type === 'number') return 'spinbutton';
        if (type === 'range') return 'slider';
        return 'textbox';
      }
      case 'textarea':
        return 'textbox';
      case 'select': {
        const s = el as HTMLSelectElement;
        return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
      }
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
        return 'heading';
      case 'img':
        return el.getAttribute('alt') === '' ? '' : 'img';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'aside': return 'complementary';
      case 'header': return el.closest('article,aside,main,nav,section') ? '' : 'banner';
      case 'footer': return el.closest('article,aside,main,nav,section') ? '' : 'contentinfo';
      case 'form': return 'form';
      case 'section': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : '';
      case 'dialog': return 'dialog';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'table': return 'table';
      case 'tr': return 'row';
      case 'td': return 'cell';
      case 'th': return 'columnheader';
      case 'fieldset': case 'details': return 'group';
      case 'summary': return 'button';
      case 'option': return 'option';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'iframe': case 'frame': return 'iframe';
      default: return '';
    }
  }

  /** Whether an element's box is not rendered (display:none, a closed submenu). offsetParent is null for those (and for fixed boxes), so only then are the costlier box and style read. */
  function unrendered(el: Element): boolean {
    return (el as HTMLElement).offsetParent === null && el.getClientRects().length === 0 && getComputedStyle(el).display !== 'contents';
  }

  /** Visible text of a subtree, for names from content and label text; stops early when long. */
  function textOf(root: Node, skip: Element | null, max = MAX_NAME * 2): string {
    let out = '';
    const visit = (n: Node) => {
      if (out.length > max) return;
      if (n.nodeType === 3) {
        out += n.nodeValue;
        return;
      }
      if (n.nodeType !== 1) return;
      const el = n as Element;
      const tag = el.localName;
      if (tag === 'br') {
        out += ' ';
        return;
      }
      if (el === skip || SKIP.has(tag) || tag === 'select' || tag === 'textarea' || el.getAttribute('aria-hidden') === 'true' || unrendered(el)) return;
      if (tag === 'img') {
        out += ' ' + (el.getAttribute('alt') ?? '') + ' ';
        return;
      }
      if (tag === 'input') {
        const type = el.getAttribute('type');
        if (type === 'submit' || type === 'button') out += ' ' + (el as HTMLInputElement).value + ' ';
        return;
      }
      if (tag === 'details' && !(el as HTMLDetailsElement).open) {
        const summary = el.querySelector(':scope > summary');
        if (summary) visit(summary);
        return;
      }
      const sr = lib.shadowRootOf(el);
      for (let c = (sr ?? el).firstChild; c; c = c.nextSibling) visit(c);
      if (BLOCK.has(tag)) out += ' ';
    };
    visit(root);
    return squash(out);
  }

  /**
   * The text of a region around a control, read in one pass: `around`, all of it but buttons (they
   * are other controls, not what the row or card says) with fields given by their aria-label or
   * placeholder; `plain`, only what is no control's. Null when the region is too large to be one
   * control's surroundings (its nodes are not all read).
   */
  function regionTextOf(root: Element): { around: string; plain: string } | null {
    let around = '';
    let plain = '';
    let left = MAX_CONTEXT_NODES;
    const add = (text: string, inControl: boolean) => {
      around += text;
      if (!inControl) plain += text;
    };
    const visit = (n: Node, inControl: boolean) => {
      if (around.length > MAX_CONTEXT || left-- <= 0) return;
      if (n.nodeType === 3) return add(n.nodeValue ?? '', inControl);
      if (n.nodeType !== 1) return;
      const el = n as Element;
      const tag = el.localName;
      if (tag === 'br') return add(' ', inControl);
      if (SKIP.has(tag) || el.getAttribute('aria-hidden') === 'true' || unrendered(el)) return;
      if (tag === 'img') return add(` ${el.getAttribute('alt') ?? ''} `, inControl);
      if (tag === 'input' || tag === 'select' || tag === 'textarea') {
        const type = el.getAttribute('type');
        // A field's own label says what its row is about ("Discount code"); its value does not.
        if (type !== 'submit' && type !== 'button' && type !== 'reset') add(` ${el.getAttribute('aria-label') ?? el.getAttribute('placeholder') ?? ''} `, false);
        return;
      }
      if (el !== root && (tag === 'button' || el.getAttribute('role') === 'button')) return;
      const control = inControl || (el !== root && isControl(el, tag));
      if (tag === 'details' && !(el as HTMLDetailsElement).open) {
        const summary = el.querySelector(':scope > summary');
        if (summary) visit(summary, control);
        return;
      }
      const sr = lib.shadowRootOf(el);
      for (let c = (sr ?? el).firstChild; c; c = c.nextSibling) visit(c, control);
      // Neighbouring links and labels are separate words even when inline.
      add(' ', inControl);
    };
    visit(root, false);
    return left < 0 ? null : { around: squash(around), plain: squash(plain) };
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

  const regions = new Map<Element, { around: string; plain: string } | null>();
  const regionOf = (a: Element) => {
    let region = regions.get(a);
    if (region === undefined) regions.set(a, (region = regionTextOf(a)));
    return region;
  };
  /**
   * The words around a control: the text of its nearest ancestor that says something besides
   * controls (its card, label or section), or of its table row or list item, so "the Delete
   * button for Bob" and "add the Blue Mug to the cart" can be told apart. None when that ancestor is
   * the page or a large region, or when the control's own row or list item says nothing more (the
   * list around it is not its context).
   */
  function contextOf(el: Element): string | undefined {
    const tag = el.localName;
    // What the element itself adds to an ancestor's plain text: a field its label, a link or button nothing.
    const field = tag === 'input' || tag === 'select' || tag === 'textarea';
    const own = (isControl(el, tag) && !field) || tag === 'button' || el.getAttribute('role') === 'button' ? undefined : regionTextOf(el);
    const ownPlain = own?.plain.length ?? 0;
    let a = parentOf(el);
    for (let depth = 0; a && depth < 8; depth++, a = parentOf(a)) {
      if (a.localName === 'body' || a.localName === 'html') return undefined;
      const item = ITEMS.has(a.localName) || ITEM_ROLES.has(a.getAttribute('role') ?? '');
      const region = regionOf(a);
      if (region === null) return undefined;
      const says = region.plain.length > ownPlain;
      // A landmark (a navigation bar, a dialog, a form) bounds the search: what lies beyond is another part of the page.
      if (!says && !item && BOUNDARY_ROLES.has(a.getAttribute('role') ?? implicitRole(a, a.localName))) return undefined;
      if (!says && !item) continue;
      if (region.around.length > MAX_CONTEXT) return undefined;
      // A link's own words are part of its region; a button's are not (buttons are left out of it).
      const ownAround = tag === 'button' || el.getAttribute('role') === 'button' ? 0 : isControl(el, tag) && !field ? textOf(el, null, MAX_CONTEXT).length : (own?.around.length ?? 0);
      return region.around.length > ownAround ? region.around : undefined;
    }
    return undefined;
  }

  /**
   * A fixed layer over (nearly) the whole viewport, at its centre: a modal's backdrop. Controls
   * outside it cannot be clicked while it is there.
   */
  function modalOverlay(): Element | undefined {
    let hit: Element | null = document.elementFromPoint(vw / 2, vh / 2);
    for (let sr = hit && lib.shadowRootOf(hit); sr; sr = hit && lib.shadowRootOf(hit)) {
      const inner: Element | null = sr.elementFromPoint(vw / 2, vh / 2);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    for (let a = hit; a && a.localName !== 'body' && a.localName !== 'html'; a = parentOf(a)) {
      if (getComputedStyle(a).position !== 'fixed') continue;
      const r = a.getBoundingClientRect();
      if (r.width * r.height >= vw * vh * 0.9) return a;
    }
    return undefined;
  }

  /** Whether a visible control lies inside: then the listener belongs to a container, not to a control of its own. */
  function holdsControls(el: Element): boolean {
    for (const d of el.querySelectorAll('a[href],button,input,select,textarea,[role],[onclick],[tabindex]')) if (d.getClientRects().length) return true;
    return false;
  }

  function byIds(el: Element, ids: string): string {
    const scope = el.getRootNode() as Document | ShadowRoot;
    return ids
      .split(/\s+/)
      .map((id) => {
        const t = scope.getElementById(id);
        return t ? textOf(t, null) : '';
      })
      .filter(Boolean)
      .join(' ');
  }

  function accessibleName(el: Element, tag: string, role: string): string {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) {
      const n = byIds(el, labelledBy);
      if (n) return n;
    }
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) return squash(aria);
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length) {
      const n = Array.from(labels, (l) => textOf(l, el)).filter(Boolean).join(' ');
      if (n) return n;
    }
    if (tag === 'input') {
      const input = el as HTMLInputElement;
      const type = input.type;
      if (type === 'submit' || type === 'reset' || type === 'button') return input.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      if (type === 'image') return input.alt || 'Submit';
    } else if (tag === 'img' || tag === 'area') {
      const alt = el.getAttribute('alt');
      if (alt) return squash(alt);
    } else if (tag === 'fieldset') {
      const legend = el.querySelector(':scope > legend');
      if (legend) return textOf(legend, null);
    } else if (tag === 'table') {
      const caption = el.querySelector(':scope > caption');
      if (caption) return textOf(caption, null);
    } else if (tag === 'iframe' || tag === 'frame') {
      return squash(el.getAttribute('title') ?? el.getAttribute('name') ?? '');
    }
    if (NAME_FROM_CONTENT.has(role) && tag !== 'input') {
      const t = textOf(el, null);
      // An icon ("🗑", "⚙") says less than the tooltip a person hovers to read.
      if (t && !/[\p{L}\p{N}]/u.test(t) && el.getAttribute('title')?.trim()) return squash(el.getAttribute('title')!);
      if (t) return t;
    }
    return squash(el.getAttribute('title') ?? el.getAttribute('placeholder') ?? '');
  }

  function shortHref(a: Element): string | undefined {
    const raw = (a as HTMLAnchorElement).href;
    if (!raw || raw.startsWith('javascript:')) return undefined;
    try {
      const u = new URL(raw);
      if (u.href.split('#')[0] === here && u.hash) return u.hash;
      if (u.origin === origin) return u.pathname + u.search + u.hash;
      return u.href;
    } catch {
      return raw;
    }
  }

  function triState(v: string | null): boolean | 'mixed' | undefined {
    return v === 'true' ? true : v === 'false' ? false : v === 'mixed' ? 'mixed' : undefined;
  }

  function inView(el: Element): 1 | undefined {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw ? 1 : undefined;
  }

  /** Appends a text run to a kid list, merging with the previous run. */
  function pushText(kids: Line[], text: string) {
    const last = kids[kids.length - 1];
    if (last && last.text !== undefined) {
      if (last.text.length < MAX_TEXT) last.text = clip(last.text + ' ' + text, MAX_TEXT);
    } else {
      kids.push({ depth: 0, text: clip(text, MAX_TEXT) });
    }
  }

  function pushAll(kids: Line[], more: Line[]) {
    for (const k of more) {
      if (k.text !== undefined) pushText(kids, k.text);
      else kids.push(k);
    }
  }

  /** Walks the children of a container: `path` is the container's deep XPath prefix. */
  function walkChildren(parent: Element | Document | ShadowRoot, path: string, kids: Line[], quiet: boolean, hiddenText: boolean, pointer: boolean) {
    const counts: Record<string, number> = Object.create(null);
    // A closed <details> shows its summary only; the rest is not rendered.
    const closed = (parent as Element).localName === 'details' && !(parent as HTMLDetailsElement).open;
    let summarySeen = false;
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      if (closed && !(c.nodeType === 1 && (c as Element).localName === 'summary' && !summarySeen)) {
        if (c.nodeType === 1) counts[(c as Element).localName] = (counts[(c as Element).localName] ?? 0) + 1;
        continue;
      }
      if (c.nodeType === 1 && (c as Element).localName === 'summary') summarySeen = true;
      if (c.nodeType === 3) {
        if (quiet || hiddenText) continue;
        const t = squash(c.nodeValue ?? '');
        if (t) pushText(kids, t);
      } else if (c.nodeType === 1) {
        const el = c as Element;
        const tag = el.localName;
        const n = (counts[tag] = (counts[tag] ?? 0) + 1);
        if (SKIP.has(tag)) continue;
        walkElement(el, path + '/' + lib.pathStep(el, n), kids, quiet, pointer);
      }
    }
  }

  function walkSlot(slot: HTMLSlotElement, path: string, kids: Line[], quiet: boolean, hiddenText: boolean, pointer: boolean) {
    const assigned = slot.assignedNodes({ flatten: true });
    if (!assigned.length) return walkChildren(slot, path, kids, quiet, hiddenText, pointer);
    for (const a of assigned) {
      if (a.nodeType === 3) {
        const t = squash(a.nodeValue ?? '');
        if (t && !quiet && !hiddenText) pushText(kids, t);
      } else if (a.nodeType === 1) {
        walkElement(a as Element, lib.elementPath(a as Element), kids, quiet, pointer);
      }
    }
  }

  function walkElement(el: Element, path: string, out: Line[], quiet: boolean, parentPointer: boolean) {
    const tag = el.localName;
    if (el.getAttribute('aria-hidden') === 'true') return;
    const style = getComputedStyle(el);
    if (style.display === 'none') return;
    if (tag === 'input' && (el as HTMLInputElement).type === 'hidden') return;
    const hidden = style.visibility !== 'visible';
    const explicit = el.getAttribute('role');
    let role = explicit ? explicit.trim().split(/\s+/)[0] : implicitRole(el, tag);
    if (role === 'presentation' || role === 'none') role = '';
    const editable = (el as HTMLElement).isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable;
    if (editable && !role) role = 'textbox';
    const pointer = style.cursor === 'pointer';
    // Handlers a script added (not attributes) are known from the listener hook; html and body listen for the whole page.
    const listens = tag === 'html' || tag === 'body' ? 0 : lib.pointerListenersOf(el);
    const plain = !hidden && !INTERACTIVE.has(role) && role !== 'heading';
    const clickable = plain && (el.hasAttribute('onclick') || (pointer && !parentPointer) || ((listens & 1) !== 0 && !holdsControls(el)));
    const hoverable = !hidden && role !== 'heading' && (el.hasAttribute('onmouseenter') || el.hasAttribute('onmouseover') || ((listens & 2) !== 0 && !holdsControls(el)));
    let scrollable = false;
    const oy = style.overflowY;
    const ox = style.overflowX;
    if ((oy === 'auto' || oy === 'scroll' || ox === 'auto' || ox === 'scroll') && tag !== 'html' && tag !== 'body') {
      scrollable = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
    }
    const ref = !hidden && (INTERACTIVE.has(role) || role === 'heading' || clickable || hoverable || scrollable || editable);

    if (hidden && !ref) {
      // visibility:hidden hides the element's own text, but a descendant may set visibility back.
      const kids: Line[] = [];
      walkInside(el, tag, path, kids, true, true, pointer);
      pushAll(out, kids);
      return;
    }

    const node: Line = { depth: 0, role: role || 'generic', tag };
    let nameFromContent = NAME_FROM_CONTENT.has(role);
    // Names cost a subtree read: only lines that may be printed need one (not cells, list items…).
    const mayPrint = ref || LANDMARKS.has(role) || GROUPS.has(role) || role === 'img';
    let name = mayPrint ? accessibleName(el, tag, role) : '';
    // A <div> that takes clicks or hovers is named by its short text, as a button would be.
    if (!role && !name && (clickable || hoverable)) {
      const text = textOf(el, null, MAX_CONTENT_NAME);
      if (text && text.length <= MAX_CONTENT_NAME) {
        name = text;
        nameFromContent = true;
      }
    }
    if (name) node.name = clip(name, MAX_NAME);

    if (ref) {
      if (tag === 'input' || tag === 'button' || tag === 'a' || tag === 'img' || tag === 'select' || tag === 'textarea') {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0 && !el.firstElementChild) return;
        if (r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw) node.inView = 1;
      } else if (inView(el)) node.inView = 1;
      node.ref = 1;
      node.xpath = path;
      describeState(el, tag, role, node);
      if (clickable) node.clickable = 1;
      if (hoverable) node.hoverable = 1;
      if (overlay && !overlay.contains(el) && !overlayHosts(el)) node.covered = 1;
      if (scrollable) node.scrollable = 1;
      if (role !== 'heading' && role !== 'iframe') {
        const around = contextOf(el);
        if (around && around !== node.name) node.context = around;
      }
    }
    if (role === 'heading') node.level = Number(el.getAttribute('aria-level')) || Number(tag.slice(1)) || undefined;

    if (role === 'iframe') {
      const i = owners.indexOf(el);
      if (i >= 0) node.frame = i;
      out.push(node);
      return;
    }

    const kids: Line[] = [];
    // A label that names a control would only repeat the control's name; its text is dropped.
    const namesControl = tag === 'label' && (el as HTMLLabelElement).control != null;
    if (tag !== 'input' && tag !== 'select' && tag !== 'textarea' && tag !== 'img') {
      walkInside(el, tag, path, kids, quiet || (ref && nameFromContent) || namesControl, hidden, pointer);
    }
    const print = ref || (LANDMARKS.has(role) || role === 'img' ? kids.length > 0 || !!node.name : GROUPS.has(role) && kids.length > 1);
    if (!print) return pushAll(out, kids);
    // A container's first text often is its name (legend, caption): printed once is enough.
    if (node.name && kids[0]?.text === node.name) kids.shift();
    if (kids.length) node.kids = kids;
    out.push(node);
  }

  function walkInside(el: Element, tag: string, path: string, kids: Line[], quiet: boolean, hiddenText: boolean, pointer: boolean) {
    const sr = lib.shadowRootOf(el);
    if (sr) walkChildren(sr, path + '/#shadow-root', kids, quiet, hiddenText, pointer);
    else if (tag === 'slot') walkSlot(el as HTMLSlotElement, path, kids, quiet, hiddenText, pointer);
    else walkChildren(el, path, kids, quiet, hiddenText, pointer);
  }

  function describeState(el: Element, tag: string, role: string, node: Line) {
    if (tag === 'input' || tag === 'textarea') {
      const input = el as HTMLInputElement;
      const type = tag === 'input' ? (input.getAttribute('type') ?? '').toLowerCase() : '';
      if (type && type !== 'text' && !TEXT_INPUT_PLAIN.has(type)) node.inputType = type;
      if (type === 'checkbox' || type === 'radio') {
        node.checked = input.indeterminate ? 'mixed' : input.checked;
      } else if (tag === 'textarea' || TEXT_INPUTS.has(type) || type === 'range') {
        // A password's value never leaves the page; the caller prints the mask instead.
        if (input.value) {
          if (type === 'password') node.secret = 1;
          else node.value = clip(input.value, MAX_TEXT);
        }
        const ph = input.placeholder;
        if (ph && !input.value && ph !== node.name) node.placeholder = clip(ph, MAX_NAME);
      }
      if (input.required) node.required = 1;
    } else if (tag === 'select') {
      const select = el as HTMLSelectElement;
      const picked = Array.from(select.selectedOptions, (o) => squash(o.label));
      if (picked.length) node.selected = clip(picked.join(', '), MAX_TEXT);
      const opts = select.options;
      const labels: string[] = [];
      for (let i = 0; i < opts.length && i < MAX_OPTIONS; i++) labels.push(clip(squash(opts[i].label), 40));
      if (opts.length > MAX_OPTIONS) labels.push(`…${opts.length - MAX_OPTIONS} more`);
      node.options = labels;
      if (select.required) node.required = 1;
    } else if (tag === 'a') {
      const href = shortHref(el);
      if (href) node.href = href;
    } else if (tag === 'summary') {
      const details = el.parentElement;
      if (details && details.localName === 'details') node.expanded = (details as HTMLDetailsElement).open;
    } else if ((el as HTMLElement).isContentEditable) {
      const t = squash((el as HTMLElement).innerText);
      if (t) node.value = clip(t, MAX_TEXT);
    }
    if ((el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true' || ((tag === 'input' || tag === 'button' || tag === 'select' || tag === 'textarea') && el.matches(':disabled'))) node.disabled = 1;
    if (el.getAttribute('aria-required') === 'true') node.required = 1;
    const checked = triState(el.getAttribute('aria-checked'));
    if (checked !== undefined && node.checked === undefined) node.checked = checked;
    const pressed = triState(el.getAttribute('aria-pressed'));
    if (pressed !== undefined) node.pressed = pressed;
    const popup = el.getAttribute('aria-haspopup');
    if (popup && popup !== 'false') node.popup = popup === 'true' ? 'menu' : popup;
    const expanded = el.getAttribute('aria-expanded');
    if (expanded === 'true' || expanded === 'false') node.expanded = expanded === 'true';
    if (el.getAttribute('aria-selected') === 'true' || (el.getAttribute('aria-current') ?? 'false') !== 'false') node.current = 1;
    if (role === 'option' && tag === 'option' && (el as HTMLOptionElement).selected) node.current = 1;
  }

  const overlay = modalOverlay();
  /** Whether the overlay lies in a shadow root above el (el is in it then, not behind it). */
  function overlayHosts(el: Element): boolean {
    for (let a: Element | null = el; a; a = parentOf(a)) if (a === overlay) return true;
    return false;
  }

  const top: Line[] = [];
  if (args.root) {
    walkElement(args.root, lib.elementPath(args.root), top, false, false);
  } else {
    walkChildren(document, '', top, false, false, false);
  }

  const nodes: WalkNode[] = [];
  const flatten = (list: Line[], depth: number) => {
    for (const n of list) {
      const kids = n.kids;
      delete n.kids;
      n.depth = depth;
      nodes.push(n);
      if (kids) flatten(kids, depth + 1);
    }
  };
  flatten(top, 0);
  const scroller = document.scrollingElement ?? document.documentElement;
  const result: WalkResult = {
    title: document.title,
    nodes,
    scrollY: Math.round(scroller.scrollTop),
    scrollHeight: scroller.scrollHeight,
    viewportHeight: vh,
  };
  return JSON.stringify(result);
}
