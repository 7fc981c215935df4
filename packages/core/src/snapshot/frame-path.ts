// Deep XPaths across frames: splitting one into its per-frame pieces, and finding the element and
// frame a deep XPath (or a CSS selector) names. Cross-origin frames are entered through
// Playwright's contentFrame(), which reaches out-of-process frames too.

import type { ElementHandle, Frame } from 'playwright-core';
import { DeckhandError } from '../errors.js';
import { inPage } from './in-page.js';

const resolvePieceScript = inPage((piece: string, lib) => lib.resolvePathPiece(piece, lib.shadowRootOf));
const elementPathScript = inPage((el: Element, lib) => lib.elementPath(el));

/** XPath, as opposed to CSS (docs/selectors.md): starts with `/`, `(` or `xpath=`. */
export function isXPath(selector: string): boolean {
  return selector.startsWith('/') || selector.startsWith('(') || selector.startsWith('xpath=');
}

/** `/a/iframe[1]/html/b` → [`/a/iframe[1]`, `/html/b`]: a piece ends at each frame owner followed by `html`. */
export function splitFramePieces(xpath: string): string[] {
  const pieces: string[] = [];
  const boundary = /\/(?:iframe|frame)(?:\[\d+\])?(?=\/html(?:[/[]|$))/g;
  let start = 0;
  for (let m = boundary.exec(xpath); m; m = boundary.exec(xpath)) {
    pieces.push(xpath.slice(start, m.index + m[0].length));
    start = m.index + m[0].length;
  }
  pieces.push(xpath.slice(start));
  return pieces;
}

export interface ResolvedElement {
  frame: Frame;
  handle: ElementHandle<Element>;
  /** Frames from `from` down to `frame`, both included. */
  chain: Frame[];
}

/** The element a selector names, starting in `from`; a deep XPath may descend into child frames. */
export async function resolveSelector(from: Frame, selector: string): Promise<ResolvedElement | null> {
  if (!isXPath(selector)) {
    const handle = await from.$(selector);
    return handle ? { frame: from, handle, chain: [from] } : null;
  }
  const pieces = splitFramePieces(selector.replace(/^xpath=/, ''));
  const chain = [from];
  let frame = from;
  for (let i = 0; ; i++) {
    const found = (await frame.evaluateHandle(resolvePieceScript, pieces[i])).asElement();
    if (!found) return null;
    if (i === pieces.length - 1) return { frame, handle: found as ElementHandle<Element>, chain };
    const child = await found.contentFrame();
    if (!child) throw new DeckhandError('frame_not_found', `no frame behind step ${i + 1} of the selector`);
    frame = child;
    chain.push(child);
  }
}

/** The deep XPath prefix of a frame's document as seen from the main frame ('' for the main frame). */
export async function framePrefix(frame: Frame): Promise<string> {
  const parent = frame.parentFrame();
  if (!parent) return '';
  const owner = await frame.frameElement();
  const [above, own] = await Promise.all([framePrefix(parent), owner.evaluate(elementPathScript)]);
  return above + own;
}
