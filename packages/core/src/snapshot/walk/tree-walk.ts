// In-page (shipped as source by inPage): the pass over a frame's rendered tree (light DOM, open and
// closed shadow roots, slots) that decides each element's line: role, name, id, state, children.
import type { InPageLib } from '../../selectors/index.js';
import type { AccessibleNames } from './accessible-name.js';
import type { controlContext } from './control-context.js';
import type { elementState } from './element-state.js';
import type { implicitRole as roleOf } from './implicit-role.js';
import type { modalOverlay } from './modal-overlay.js';
import type { Line } from './walk-types.js';
import type { WalkRules } from './walk-rules.js';

/** What the pass reads with: the other parts of the walk, made for this frame. */
export type TreeWalkParts = AccessibleNames &
  ReturnType<typeof controlContext> &
  ReturnType<typeof elementState> &
  ReturnType<typeof modalOverlay> & {
    owners: Element[];
    context: boolean;
    vw: number;
    vh: number;
    implicitRole: typeof roleOf;
    /** Where each line that gets an id is mapped to its element, when the caller wants elements back. */
    elements: Map<Line, Element> | null;
  };

export function treeWalk(rules: WalkRules, lib: InPageLib, parts: TreeWalkParts) {
  const { MAX_NAME, MAX_TEXT, MAX_CONTENT_NAME, SKIP, INTERACTIVE, NAME_FROM_CONTENT, LANDMARKS, GROUPS, squash, clip, holdsControls } = rules;
  const { owners, context, vw, vh, implicitRole, textOf, accessibleName, contextOf, inView, describeState, overlay, overlayHosts, elements } = parts;

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
    // A file field hidden behind a styled label or button is usually the page's real one, and a file is
    // set on it without a box: it stays a line (a candidate for an upload), whatever hides it.
    const fileField = tag === 'input' && (el as HTMLInputElement).type === 'file';
    if (style.display === 'none' && !fileField) return;
    if (tag === 'input' && (el as HTMLInputElement).type === 'hidden') return;
    const hidden = style.visibility !== 'visible' && !fileField;
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
        if (r.width === 0 && r.height === 0 && !el.firstElementChild && !fileField) return;
        if (r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw) node.inView = 1;
      } else if (inView(el)) node.inView = 1;
      node.ref = 1;
      node.xpath = path;
      elements?.set(node, el);
      describeState(el, tag, role, node);
      if (clickable) node.clickable = 1;
      if (hoverable) node.hoverable = 1;
      if (overlay && !overlay.contains(el) && !overlayHosts(el)) node.covered = 1;
      if (scrollable) node.scrollable = 1;
      if (context && role !== 'heading' && role !== 'iframe') {
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

  return { walkChildren, walkElement };
}
