// Resolving one frame's piece of a deep XPath (the part between frame boundaries). Runs in the page.

/**
 * In-page, self-contained. Plain XPath goes to document.evaluate; a piece with `#shadow-root`
 * steps is walked step by step (`tag[n]` = n-th child element with that tag), because XPath
 * cannot enter shadow roots. `shadowRoot` is the open-or-closed root lookup (shadowRootOf).
 */
export function resolvePathPiece(
  piece: string,
  shadowRoot: (el: Element) => ShadowRoot | null,
): Element | null {
  if (!piece.includes('#shadow-root')) {
    const hit = document.evaluate(piece, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
    return hit instanceof Element ? hit : null;
  }
  let node: Element | Document | ShadowRoot = document;
  for (const step of piece.split('/').filter(Boolean)) {
    if (step === '#shadow-root') {
      const root: ShadowRoot | null = node instanceof Element ? shadowRoot(node) : null;
      if (!root) return null;
      node = root;
      continue;
    }
    const m = /^(?:\*\[name\(\)='([^']+)'\]|([\w-]+))(?:\[(\d+)\])?$/.exec(step);
    if (!m) return null;
    const tag = (m[1] ?? m[2]).toLowerCase();
    let n = m[3] ? Number(m[3]) : 1;
    let found: Element | null = null;
    for (let c: Element | null = node.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === tag && --n === 0) {
        found = c;
        break;
      }
    }
    if (!found) return null;
    node = found;
  }
  return node instanceof Element ? node : null;
}
