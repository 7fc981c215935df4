// The CDP reader: the backend node id of the element a deep XPath names, looked up lazily (the
// snapshot's walk runs in the page and does not know it). Playwright handles cannot cross into raw
// CDP calls, so the path is read again, frame piece by frame piece, with the same walker by its
// source text, inside the (shared) CDP session that owns the element's frame: the page's, or an
// out-of-process frame's own. Which frames the path crosses, the Playwright reader says first.

import type { Frame, Page } from 'playwright-core';
import { hasOwnCdpSession, sendCdp } from '../browser/cdp/cdp-session.js';
import { parseDeepXPath, SelectorSyntaxError } from './deep-xpath.js';
import { frameChain } from './frame-path.js';
import { resolveTarget } from './resolve-target.js';
import { walkPieceScript } from './walk-piece.js';

const WALK_PIECE = String(walkPieceScript);

/** Names the remote objects of one lookup, so they are released together afterwards. */
let lookups = 0;

/** The backend node id of the element `xpath` (from the main frame) names, or undefined when there is none. */
export async function resolveBackendNodeId(page: Page, xpath: string): Promise<number | undefined> {
  let pieces: ReturnType<typeof parseDeepXPath>;
  try {
    // pieces[k] is read in chain[k].
    pieces = parseDeepXPath(xpath);
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return undefined;
    throw error;
  }
  const chain = pieces.length === 1 ? [page.mainFrame()] : await framesCrossed(page, xpath);
  if (!chain) return undefined;
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
        expression: `(${WALK_PIECE})(${JSON.stringify(pieces[from])})`,
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
          functionDeclaration: WALK_PIECE,
          arguments: [{ value: pieces[i] }],
          objectGroup,
        })
      ).result.objectId;
    }
    if (!objectId) return undefined;
    return (await send<{ node: { backendNodeId: number } }>('DOM.describeNode', { objectId })).node.backendNodeId;
  } finally {
    // Nothing waits for the page to let the objects go.
    void send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
  }
}

/** The frames a path crossing into child frames passes through, asked of the Playwright reader; null when it names nothing. */
async function framesCrossed(page: Page, xpath: string): Promise<Frame[] | null> {
  const found = await resolveTarget(page.mainFrame(), xpath, 0);
  if (!found.found) return null;
  await found.target.element.dispose();
  return frameChain(found.target.frame);
}

/**
 * The backend node ids of several elements (undefined where there is none), in order. Paths that cross
 * no frame are read together, in one walk and one release; the others one by one.
 */
export async function resolveBackendNodeIds(page: Page, xpaths: string[]): Promise<Array<number | undefined>> {
  const inMainFrame = new Map<number, unknown>();
  for (const [i, xpath] of xpaths.entries()) {
    try {
      const pieces = parseDeepXPath(xpath);
      if (pieces.length === 1) inMainFrame.set(i, pieces[0]);
    } catch {
      // A malformed path names nothing; resolveBackendNodeId says so below.
    }
  }
  const batch = await readMainFrameIds(page, [...inMainFrame.values()]).catch(() => null);
  const batchIndex = [...inMainFrame.keys()];
  return Promise.all(
    xpaths.map((xpath, i) => {
      const at = batchIndex.indexOf(i);
      return batch && at >= 0 ? batch[at] : resolveBackendNodeId(page, xpath);
    }),
  );
}

async function readMainFrameIds(page: Page, pieces: unknown[]): Promise<Array<number | undefined>> {
  if (pieces.length === 0) return [];
  const objectGroup = `deckhand-backend-node-${++lookups}`;
  const send = <T>(method: string, params: object) => sendCdp<T>(page, method, params);
  try {
    const walked = await send<{ result: { objectId?: string }; exceptionDetails?: unknown }>('Runtime.evaluate', {
      expression: `(${JSON.stringify(pieces)}).map((piece) => (${WALK_PIECE})(piece))`,
      objectGroup,
    });
    if (walked.exceptionDetails || !walked.result.objectId) throw new Error('the walk failed');
    const { result } = await send<{ result: Array<{ name: string; value?: { objectId?: string } }> }>('Runtime.getProperties', {
      objectId: walked.result.objectId,
      ownProperties: true,
    });
    const objectIds = pieces.map((_, i) => result.find((property) => property.name === String(i))?.value?.objectId);
    return await Promise.all(
      objectIds.map((objectId) =>
        objectId ? send<{ node: { backendNodeId: number } }>('DOM.describeNode', { objectId }).then(({ node }) => node.backendNodeId) : undefined,
      ),
    );
  } finally {
    // Nothing waits for the page to let the objects go.
    void send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
  }
}
