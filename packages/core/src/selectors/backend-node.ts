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
  // The last piece's read answers with its node's backend id itself (deep serialization): no describeNode after it.
  const last = (i: number) => (i === pieces.length - 1 ? { serializationOptions: DEEP_NODE } : {});
  try {
    let read = (
      await send<{ result: ReadResult }>('Runtime.evaluate', {
        expression: `(${WALK_PIECE})(${JSON.stringify(pieces[from])})`,
        objectGroup,
        ...last(from),
      })
    ).result;
    for (let i = from + 1; i < pieces.length && read.objectId; i++) {
      const owning = await send<{ node: { contentDocument?: { backendNodeId: number } } }>('DOM.describeNode', { objectId: read.objectId });
      const doc = owning.node.contentDocument;
      if (!doc) return undefined;
      const docObject = await send<{ object: { objectId?: string } }>('DOM.resolveNode', { backendNodeId: doc.backendNodeId, objectGroup });
      read = (
        await send<{ result: ReadResult }>('Runtime.callFunctionOn', {
          objectId: docObject.object.objectId,
          functionDeclaration: WALK_PIECE,
          arguments: [{ value: pieces[i] }],
          objectGroup,
          ...last(i),
        })
      ).result;
    }
    if (!read.objectId) return undefined;
    return read.deepSerializedValue ? nodeIdOf(read.deepSerializedValue) : (await send<{ node: { backendNodeId: number } }>('DOM.describeNode', { objectId: read.objectId })).node.backendNodeId;
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
 * no frame are read together, in one evaluation; the others one by one.
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

/** One evaluation walks every path and answers with the nodes' backend ids (deep serialization of the array). */
async function readMainFrameIds(page: Page, pieces: unknown[]): Promise<Array<number | undefined>> {
  if (pieces.length === 0) return [];
  const objectGroup = `deckhand-backend-node-${++lookups}`;
  const send = <T>(method: string, params: object) => sendCdp<T>(page, method, params);
  try {
    const walked = await send<{ result: ReadResult; exceptionDetails?: unknown }>('Runtime.evaluate', {
      expression: `(${JSON.stringify(pieces)}).map((piece) => (${WALK_PIECE})(piece))`,
      objectGroup,
      serializationOptions: { ...DEEP_NODE, maxDepth: 1 },
    });
    const list = walked.result.deepSerializedValue?.value;
    // A browser without deep serialization (older than Chromium 117) has each path read on its own.
    if (walked.exceptionDetails || !Array.isArray(list)) throw new Error('the walk failed');
    return pieces.map((_, i) => nodeIdOf(list[i] as DeepValue | undefined));
  } finally {
    // Nothing waits for the page to let the objects go.
    void send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
  }
}

/** CDP's deep serialization of a value: a node's carries its backend id. */
interface DeepValue {
  type: string;
  value?: unknown;
}

interface ReadResult {
  objectId?: string;
  deepSerializedValue?: DeepValue;
}

/** A node serialized alone (depth 0: its own fields, not its children's). */
const DEEP_NODE = { serialization: 'deep', maxDepth: 0 } as const;

function nodeIdOf(value: DeepValue | undefined): number | undefined {
  return value?.type === 'node' ? (value.value as { backendNodeId?: number }).backendNodeId : undefined;
}
