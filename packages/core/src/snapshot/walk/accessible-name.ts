// In-page (shipped as source by inPage): the visible text of a subtree and an element's accessible
// name, read cheaply from the DOM instead of the accessibility tree.
import type { InPageLib } from '../../selectors/index.js';
import type { WalkRules } from './walk-rules.js';

export function accessibleNames(rules: WalkRules, lib: InPageLib) {
  const { MAX_NAME, SKIP, BLOCK, NAME_FROM_CONTENT, squash, unrendered } = rules;

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
   * The labels of each control, by tree (the document or a shadow root), found once per walk: a
   * control's own `labels` list searches its whole tree on every read, which made a page of 60,000
   * buttons take minutes.
   */
  const labelsByTree = new Map<Node, Map<Element, HTMLLabelElement[]>>();
  function labelsOf(el: Element): HTMLLabelElement[] | undefined {
    const tree = el.getRootNode() as Document | ShadowRoot;
    let labels = labelsByTree.get(tree);
    if (!labels) {
      labels = new Map();
      for (const label of tree.querySelectorAll?.('label') ?? []) {
        const control = (label as HTMLLabelElement).control;
        if (control) labels.set(control, [...(labels.get(control) ?? []), label as HTMLLabelElement]);
      }
      labelsByTree.set(tree, labels);
    }
    return labels.get(el);
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
    const labels = labelsOf(el);
    if (labels) {
      const n = labels.map((l) => textOf(l, el)).filter(Boolean).join(' ');
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

  return { textOf, accessibleName };
}

export type AccessibleNames = ReturnType<typeof accessibleNames>;
