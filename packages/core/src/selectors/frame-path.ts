// Deep XPaths across frames (docs/selectors.md): the writer's prefix that places a frame's document
// under the main frame, and the frames a path crosses.

import type { Frame } from 'playwright-core';
import { inPage } from './in-page.js';

const elementPathScript = inPage((el: Element, lib) => lib.elementPath(el));

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
