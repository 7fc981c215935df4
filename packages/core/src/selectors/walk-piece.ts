// The one in-page walker of deep XPaths: a frame piece (deep-xpath.ts) to its element, in the
// document of the frame it runs in. Both readers ship it: resolve-target.ts through Playwright,
// backend-node.ts through CDP by its source text.

import type { FramePiece } from './deep-xpath.js';
import { inPage, type InPageLib } from './in-page.js';

/** In-page: the piece's XPath against the document, then each shadow root's steps, matched and counted as XPath would. */
function walkPiece(piece: FramePiece, lib: InPageLib): Element | null {
  const hit = document.evaluate(piece.xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
  let node: Element | null = hit instanceof Element ? hit : null;
  const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  for (const steps of piece.shadow) {
    let parent: Element | ShadowRoot | null = node && lib.shadowRootOf(node);
    for (const step of steps) {
      let n = step.index;
      node = null;
      for (let c: Element | null = parent?.firstElementChild ?? null; c && !node; c = c.nextElementSibling) {
        const matches =
          step.test === 'tag'
            ? c.namespaceURI === 'http://www.w3.org/1999/xhtml' && asciiLower(c.localName) === step.name
            : (c.prefix ? `${c.prefix}:${c.localName}` : c.localName) === step.name;
        if (matches && --n === 0) node = c;
      }
      parent = node;
    }
  }
  return node;
}

export const walkPieceScript = inPage(walkPiece);
