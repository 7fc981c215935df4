// Walks a frame and every frame below it in parallel, one evaluate per frame (out-of-process
// frames included), and stitches each child frame's lines under its owner element's line.

import type { ElementHandle, Frame } from 'playwright-core';
import { readFrame, type SkippedFrame } from '../dom/frame-read.js';
import { isPageException, PAGE_SCRIPT_FAILURE } from '../errors.js';
import { inPage } from '../selectors/index.js';
import { walkMainFrame } from './main-frame-walk.js';
import { walkFrame, type WalkArgs, type WalkResult } from './page-walker.js';
import { WALK_MODULES } from './walk/index.js';

const walkScript = inPage(walkFrame, WALK_MODULES);

/**
 * Lines of `frame` and its descendant frames; xpaths are deep, relative to `frame`'s document. A child
 * frame that cannot be read (see frame-read.ts) is left out, its owner's line kept, and is reported in `skipped`.
 */
export async function walkFrameTree(frame: Frame, walk: TreeWalk, root?: ElementHandle<Element>): Promise<WalkResult> {
  // Only child frames' reads can be skipped, so the starting frame's walk is always there.
  return (await walkTree(frame, walk, root, false))!;
}

/** What every frame's walk shares: where skipped frames are reported, whether controls' surroundings are read. */
export interface TreeWalk {
  skipped: SkippedFrame[];
  context: boolean;
  /**
   * The first this many lines an action can target get their backend node id (WalkNode.backendNodeId), where
   * the walk can carry them: a main frame without child frames, walked whole.
   */
  backendNodeIds?: number;
  /** WalkArgs.maxLines and WalkArgs.words: each frame sends at most this many lines, these words' first. */
  maxLines?: number;
  words?: string[];
}

async function walkTree(frame: Frame, walk: TreeWalk, root: ElementHandle<Element> | undefined, isChild: boolean): Promise<WalkResult | null> {
  const children = frame.childFrames();
  // A child whose own script broke its walk is left out and said so; one that navigated or detached meanwhile, silently.
  const walkChild = (child: Frame) =>
    walkTree(child, walk, undefined, true).catch((error: unknown) => {
      if (isPageException(error)) walk.skipped.push({ url: child.url(), reason: PAGE_SCRIPT_FAILURE });
      return null;
    });
  // Child walks do not depend on the parent's: start them first so all frames run concurrently. A
  // scoped walk instead waits for the parent's, which says which frames lie inside the scope.
  const childWalks = root ? undefined : children.map(walkChild);
  const readOwn = () =>
    !frame.parentFrame() && children.length === 0 && !root
      ? walkMainFrame(frame.page(), walkScript, { frameOwners: [], context: walk.context, elementsOf: walk.backendNodeIds, maxLines: walk.maxLines, words: walk.words })
      : walkOwnDocument(frame, children, root, walk);
  // Only the frame's own document is bounded: a slow grandchild must not cost its parent's lines.
  const own = isChild ? await readFrame(frame, readOwn, { skipped: walk.skipped }) : await readOwn();
  if (!own) return null;
  const inScope = new Set(own.nodes.map((node) => node.frame));
  const subs = await Promise.all(childWalks ?? children.map((child, i) => (inScope.has(i) ? walkChild(child) : null)));
  if (!subs.some(Boolean)) return own;

  const nodes = [];
  for (const node of own.nodes) {
    nodes.push(node);
    const sub = node.frame === undefined ? null : subs[node.frame];
    if (!sub) continue;
    for (const inner of sub.nodes) {
      inner.depth += node.depth + 1;
      if (inner.xpath) inner.xpath = node.xpath + inner.xpath;
      // A frame's own viewport test knows nothing of where the frame sits on the page.
      if (!node.inView) delete inner.inView;
      nodes.push(inner);
    }
  }
  return { ...own, nodes };
}

/** One evaluate over the frame's document; `children` are its child frames, whose owners it marks. */
async function walkOwnDocument(frame: Frame, children: Frame[], root: ElementHandle<Element> | undefined, walk: TreeWalk): Promise<WalkResult> {
  const owners = await Promise.all(children.map((c) => c.frameElement().catch(() => null)));
  // Playwright turns the handles back into the page's elements; its Unboxed<> type is too deep for tsc.
  const args = { frameOwners: owners, root, context: walk.context, maxLines: walk.maxLines, words: walk.words } as unknown as WalkArgs;
  try {
    return JSON.parse(await (frame.evaluate as (fn: typeof walkScript, arg: WalkArgs) => Promise<string>)(walkScript, args)) as WalkResult;
  } finally {
    await Promise.all(owners.map((owner) => owner?.dispose().catch(() => undefined)));
  }
}
