// The in-page half of the snapshot: one pass over a frame's rendered tree (light DOM, open and
// closed shadow roots, slots) that yields the outline's nodes in document order. It computes
// roles, accessible names and element state cheaply instead of asking CDP for the AX tree, which
// is what makes it faster than the accessibility-tree route. Child frames are not entered: the
// caller walks each frame with its own evaluate and stitches them under the owner's node. The
// parts of the pass are the in-page modules of walk/, handed in by inPage as `lib`.

import type { InPageLib } from '../selectors/index.js';
import type { WalkModules } from './walk/index.js';
import type { Line, WalkArgs, WalkNode, WalkResult } from './walk/walk-types.js';

export type { WalkArgs, WalkNode, WalkResult } from './walk/walk-types.js';

/**
 * In-page, self-contained (see in-page.ts). Returns JSON of a WalkResult: one string crosses CDP faster
 * than a deep object. With args.elementsOf, an array: the JSON, then the elements of WalkResult.idLines.
 */
export function walkFrame(args: WalkArgs, lib: InPageLib & WalkModules): string | [string, ...Element[]] {
  const rules = lib.walkRules();
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  // srcdoc and about:blank frames link relative to their parent's URL, which baseURI reflects.
  const origin = new URL(document.baseURI).origin;
  const here = location.href.split('#')[0];
  const { textOf, accessibleName } = lib.accessibleNames(rules, lib);
  const { contextOf } = lib.controlContext(rules, lib, textOf, lib.implicitRole);
  const { inView, describeState } = lib.elementState(rules, { vw, vh, origin, here });
  const { overlay, overlayHosts } = lib.modalOverlay(rules, lib, vw, vh);
  const wanted = args.elementsOf ?? 0;
  const elements = wanted > 0 ? new Map<Line, Element>() : null;
  const parts = { owners: args.frameOwners, context: args.context, elements, vw, vh, implicitRole: lib.implicitRole, textOf, accessibleName, contextOf, inView, describeState, overlay, overlayHosts };
  const { walkChildren, walkElement } = lib.treeWalk(rules, lib, parts);

  const top: Line[] = [];
  if (args.root) {
    walkElement(args.root, lib.elementPath(args.root), top, false, false);
  } else {
    walkChildren(document, '', top, false, false, false);
  }

  const all: WalkNode[] = [];
  const flatten = (list: Line[], depth: number) => {
    for (const n of list) {
      const kids = n.kids;
      delete n.kids;
      n.depth = depth;
      all.push(n);
      if (kids) flatten(kids, depth + 1);
    }
  };
  flatten(top, 0);
  const nodes = args.maxLines ? lib.lineCap().capLines(all, args.maxLines, args.words ?? []) : all;
  // A document the browser has just created for a navigation has no root element yet.
  const scroller = document.scrollingElement ?? document.documentElement;
  const result: WalkResult = {
    title: document.title,
    nodes,
    scrollY: Math.round(scroller?.scrollTop ?? 0),
    scrollHeight: scroller?.scrollHeight ?? 0,
    viewportHeight: vh,
    parsed: document.readyState !== 'loading',
  };
  if (!elements) return JSON.stringify(result);
  const idLines: number[] = [];
  const targets: Element[] = [];
  for (let i = 0; i < nodes.length && targets.length < wanted; i++) {
    const element = nodes[i]!.role !== 'heading' && elements.get(nodes[i]!);
    if (!element) continue;
    idLines.push(i);
    targets.push(element);
  }
  result.idLines = idLines;
  return [JSON.stringify(result), ...targets];
}
