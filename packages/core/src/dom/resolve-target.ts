// Resolves an Action selector (CSS or deep XPath, see docs/selectors.md) to one element handle in the
// frame that holds it. Polls briefly so an element that appears a moment later is still found.
import type { ElementHandle, Frame, JSHandle } from 'playwright-core';
import { isXPath, parseDeepXPath, type XPathPiece } from './deep-xpath.js';
import { shadowRootOf } from './shadow-hook.js';

export interface ResolvedTarget {
  frame: Frame;
  element: ElementHandle<Element>;
}

export type Resolution = { found: true; target: ResolvedTarget } | { found: false; reason: string };

const POLL_MS = 100;

export async function resolveTarget(frame: Frame, selector: string, timeoutMs: number): Promise<Resolution> {
  const deadline = Date.now() + timeoutMs;
  const pieces = isXPath(selector) ? parseDeepXPath(selector) : undefined;
  for (;;) {
    let target: ResolvedTarget | null;
    try {
      target = pieces ? await resolveDeepXPath(frame, pieces) : await resolveCss(frame, selector);
    } catch (error) {
      if (isSelectorSyntaxError(error)) return { found: false, reason: `Invalid selector "${selector}"` };
      target = null; // A frame navigated or detached mid-walk: try again.
    }
    if (target) return { found: true, target };
    if (Date.now() + POLL_MS > deadline) {
      return { found: false, reason: `No element matches selector "${selector}"` };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function resolveCss(frame: Frame, selector: string): Promise<ResolvedTarget | null> {
  const element = await frame.$(selector);
  return element ? { frame, element } : null;
}

async function resolveDeepXPath(start: Frame, pieces: XPathPiece[]): Promise<ResolvedTarget | null> {
  let frame = start;
  let root: JSHandle | null = null; // null: the frame's document
  let element: ElementHandle<Element> | null = null;
  // Every handle taken on the way; all but the one returned are released.
  const taken: JSHandle[] = [];
  let found: ResolvedTarget | null = null;
  try {
    for (const piece of pieces) {
      element = await evaluatePiece(frame, root, piece.steps);
      if (!element) return null;
      taken.push(element);
      if (piece.enters === 'frame') {
        const child = await element.contentFrame();
        if (!child) return null;
        frame = child;
        root = null;
      } else if (piece.enters === 'shadow') {
        root = await element.evaluateHandle(shadowRootOf);
        taken.push(root);
        if (!(await root.evaluate((node) => node !== null))) return null;
      }
    }
    found = element && { frame, element };
    return found;
  } finally {
    await Promise.all(taken.filter((handle) => handle !== found?.element).map((handle) => handle.dispose().catch(() => undefined)));
  }
}

/**
 * In a document: one XPath evaluation. In a shadow root: simple steps (`tag` / `tag[n]`, the n-th child
 * element with that tag) are walked, since the snapshot prints them that way; anything else is XPath.
 */
async function evaluatePiece(frame: Frame, root: JSHandle | null, steps: string[]): Promise<ElementHandle<Element> | null> {
  const handle = await frame.evaluateHandle(
    ([context, pieceSteps]) => {
      const simple = pieceSteps.every((step) => /^[\w-]+(\[\d+\])?$/.test(step));
      if (context && simple) {
        let node: Element | ShadowRoot | null = context as ShadowRoot;
        for (const step of pieceSteps) {
          const match = /^([\w-]+)(?:\[(\d+)\])?$/.exec(step)!;
          const tag = match[1]!.toLowerCase();
          const index = Number(match[2] ?? 1) - 1;
          const siblings: Element[] = Array.from(node.children).filter((el) => el.localName.toLowerCase() === tag);
          node = siblings[index] ?? null;
          if (!node) return null;
        }
        return node;
      }
      const expression = context && pieceSteps[0] === '' ? `.${pieceSteps.join('/')}` : pieceSteps.join('/');
      const result = document.evaluate(expression, context ?? document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null);
      const found = result.singleNodeValue;
      return found instanceof Element ? found : null;
    },
    [root, steps] as const,
  );
  return handle.asElement() as ElementHandle<Element> | null;
}

function isSelectorSyntaxError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /not a valid (selector|XPath)|Unexpected token|SyntaxError|is not a valid/i.test(message);
}
