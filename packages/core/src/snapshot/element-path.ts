// The deep XPath of an element inside its own frame's document (docs/selectors.md): `tag[n]` steps,
// `#shadow-root` where a step crosses into a shadow root. Runs in the page.

/** In-page, self-contained: one step per ancestor; `html` is the root step, every other step is indexed. */
export function elementPath(el: Element): string {
  const steps: string[] = [];
  let node: Element = el;
  for (;;) {
    const parent = node.parentNode;
    const tag = node.localName;
    if (!parent || parent.nodeType === 9) {
      steps.push(tag);
      break;
    }
    let n = 1;
    for (let s = node.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === tag) n++;
    // XPath name tests only match HTML-namespace elements by bare name; svg and MathML need name().
    steps.push(node.namespaceURI === 'http://www.w3.org/1999/xhtml' ? `${tag}[${n}]` : `*[name()='${tag}'][${n}]`);
    if (parent.nodeType === 11) {
      steps.push('#shadow-root');
      node = (parent as ShadowRoot).host;
    } else {
      node = parent as Element;
    }
  }
  return '/' + steps.reverse().join('/');
}
