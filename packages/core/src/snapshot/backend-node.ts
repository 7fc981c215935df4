// Backend node ids are looked up lazily: the walk runs in the page and does not know them. The
// element's deep XPath is followed again, frame piece by frame piece, inside the CDP session that
// owns the element's frame (the page's, or an out-of-process frame's own).

import type { CDPSession, Page } from 'playwright-core';
import { resolveTarget } from '../dom/resolve-target.js';
import { frameChain, splitFramePieces } from './frame-path.js';
import { resolvePathPiece } from './path-piece.js';
import { shadowRootOf } from '../dom/shadow-hook.js';
import type { SnapshotElement } from './types.js';

// The page side of the CDP route; Playwright handles cannot cross into raw CDP calls, so the
// piece is resolved again by source text (Runtime.evaluate / callFunctionOn).
const RESOLVE_PIECE = `function (piece) { const __name = (f) => f; return (${resolvePathPiece})(piece, ${shadowRootOf}); }`;

/** The element's CDP backend node id, or undefined when it is gone. */
export async function resolveBackendNodeId(page: Page, element: SnapshotElement): Promise<number | undefined> {
  const found = await resolveTarget(page.mainFrame(), element.xpath, 0);
  if (!found.found) return undefined;
  await found.target.element.dispose();
  const chain = frameChain(found.target.frame);
  const pieces = splitFramePieces(element.xpath);
  // The deepest frame on the path with a CDP session of its own (out-of-process); else the page's.
  let session: CDPSession | undefined;
  let from = 0;
  for (let k = chain.length - 1; k > 0 && !session; k--) {
    session = await page.context().newCDPSession(chain[k]).catch(() => undefined);
    if (session) from = k;
  }
  session ??= await page.context().newCDPSession(page);
  try {
    let objectId = (await session.send('Runtime.evaluate', { expression: `(${RESOLVE_PIECE})(${JSON.stringify(pieces[from])})` })).result.objectId;
    for (let i = from + 1; i < pieces.length && objectId; i++) {
      const owner = await session.send('DOM.describeNode', { objectId });
      const doc = owner.node.contentDocument;
      if (!doc) return undefined;
      const docObject = await session.send('DOM.resolveNode', { backendNodeId: doc.backendNodeId });
      objectId = (await session.send('Runtime.callFunctionOn', { objectId: docObject.object.objectId, functionDeclaration: RESOLVE_PIECE, arguments: [{ value: pieces[i] }] })).result.objectId;
    }
    if (!objectId) return undefined;
    return (await session.send('DOM.describeNode', { objectId })).node.backendNodeId;
  } finally {
    await session.detach().catch(() => undefined);
  }
}
