// The writer of deep XPaths (docs/selectors.md): the path of an element inside its own frame's
// document, with `#shadow-root` where it crosses into a shadow root. Runs in the page (in-page.ts).

/** In-page: the step naming `el`, the n-th element of its tag name among its siblings. The document's root element is a bare `html`. */
export function pathStep(el: Element, n: number): string {
  const tag = el.localName;
  if (!el.parentNode || el.parentNode.nodeType === 9) return tag;
  // XPath name tests only match HTML-namespace elements by bare name; svg and MathML need name().
  return el.namespaceURI === 'http://www.w3.org/1999/xhtml' ? `${tag}[${n}]` : `*[name()='${tag}'][${n}]`;
}

/** In-page, with pathStep declared beside it (in-page.ts does): one step per ancestor, up to the document. */
export function elementPath(el: Element): string {
  const steps: string[] = [];
  let node: Element | null = el;
  while (node) {
    let n = 1;
    for (let s = node.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === node.localName) n++;
    steps.push(pathStep(node, n));
    const parent: ParentNode | null = node.parentNode;
    if (parent?.nodeType === 11) {
      steps.push('#shadow-root');
      node = (parent as ShadowRoot).host;
    } else {
      node = parent?.nodeType === 1 ? (parent as Element) : null;
    }
  }
  return '/' + steps.reverse().join('/');
}
