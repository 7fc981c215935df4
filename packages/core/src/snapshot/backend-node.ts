// Backend node ids are looked up lazily: the walk runs in the page and does not know them. The
// element's deep XPath is followed again, frame piece by frame piece, inside the (shared) CDP session
// that owns the element's frame (the page's, or an out-of-process frame's own).

import type { Frame, Page } from 'playwright-core';
import { hasOwnCdpSession, sendCdp } from '../browser/cdp-session.js';
import { resolveTarget } from '../dom/resolve-target.js';
import { frameChain, splitFramePieces } from './frame-path.js';
import { resolvePathPiece } from './path-piece.js';
import { shadowRootOf } from '../dom/shadow-hook.js';
import type { SnapshotElement } from './types.js';

// The page side of the CDP route; Playwright handles cannot cross into raw CDP calls, so the
// piece is resolved again by source text (Runtime.evaluate / callFunctionOn).
const RESOLVE_PIECE = `function (piece) { const __name = (f) => f; return (${resolvePathPiece})(piece, ${shadowRootOf}); }`;

/** Names the remote objects of one lookup, so they are released together afterwards. */
let lookups = 0;

/** The element's CDP backend node id, or undefined when it is gone. */
export async function resolveBackendNodeId(page: Page, element: SnapshotElement): Promise<number | undefined> {
  const found = await resolveTarget(page.mainFrame(), element.xpath, 0);
  if (!found.found) return undefined;
  await found.target.element.dispose();
  const chain = frameChain(found.target.frame);
  const pieces = splitFramePieces(element.xpath);
  // The deepest frame on the path with a CDP session of its own (out-of-process); else the page's.
  let owner: Page | Frame = page;
  let from = 0;
  for (let k = chain.length - 1; k > 0; k--) {
    if (await hasOwnCdpSession(chain[k]!)) {
      owner = chain[k]!;
      from = k;
      break;
    }
  }
  const objectGroup = `deckhand-backend-node-${++lookups}`;
  const send = <T>(method: string, params: object) => sendCdp<T>(owner, method, params);
  try {
    let objectId = (
      await send<{ result: { objectId?: string } }>('Runtime.evaluate', {
        expression: `(${RESOLVE_PIECE})(${JSON.stringify(pieces[from])})`,
        objectGroup,
      })
    ).result.objectId;
    for (let i = from + 1; i < pieces.length && objectId; i++) {
      const owning = await send<{ node: { contentDocument?: { backendNodeId: number } } }>('DOM.describeNode', { objectId });
      const doc = owning.node.contentDocument;
      if (!doc) return undefined;
      const docObject = await send<{ object: { objectId?: string } }>('DOM.resolveNode', { backendNodeId: doc.backendNodeId, objectGroup });
      objectId = (
        await send<{ result: { objectId?: string } }>('Runtime.callFunctionOn', {
          objectId: docObject.object.objectId,
          functionDeclaration: RESOLVE_PIECE,
          arguments: [{ value: pieces[i] }],
          objectGroup,
        })
      ).result.objectId;
    }
    if (!objectId) return undefined;
    return (await send<{ node: { backendNodeId: number } }>('DOM.describeNode', { objectId })).node.backendNodeId;
  } finally {
    await send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
  }
}
