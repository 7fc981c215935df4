// Deep XPaths across frames (docs/selectors.md): the prefix that places a frame's document under
// the main frame, and the split of a deep XPath into per-frame pieces.

import type { Frame } from 'playwright-core';
import { inPage } from './in-page.js';

const elementPathScript = inPage((el: Element, lib) => lib.elementPath(el));

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

/** The deep XPath prefix of a frame's document as seen from the main frame ('' for the main frame). */
export async function framePrefix(frame: Frame): Promise<string> {
  const parent = frame.parentFrame();
  if (!parent) return '';
  const owner = await frame.frameElement();
  try {
    const [above, own] = await Promise.all([framePrefix(parent), owner.evaluate(elementPathScript)]);
    return above + own;
  } finally {
    await owner.dispose().catch(() => undefined);
  }
}

/** The frames from the main frame down to `frame`, both included. */
export function frameChain(frame: Frame): Frame[] {
  const chain = [frame];
  for (let f = frame.parentFrame(); f; f = f.parentFrame()) chain.unshift(f);
  return chain;
}
