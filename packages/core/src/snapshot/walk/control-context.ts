// In-page (shipped as source by inPage): the words around a control (its row, card or section), so
// two controls of the same name can be told apart.
import type { InPageLib } from '../../selectors/index.js';
import type { AccessibleNames } from './accessible-name.js';
import type { implicitRole as roleOf } from './implicit-role.js';
import type { WalkRules } from './walk-rules.js';

export function controlContext(rules: WalkRules, lib: InPageLib, textOf: AccessibleNames['textOf'], implicitRole: typeof roleOf) {
  const { MAX_CONTEXT, MAX_CONTEXT_NODES, SKIP, ITEMS, ITEM_ROLES, BOUNDARY_ROLES, squash, unrendered, parentOf, isControl } = rules;

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

  return { contextOf };
}
