// The Playwright reader: an Action selector (CSS or deep XPath, see docs/selectors.md) to one element
// handle in the frame that holds it. Polls briefly so an element that appears a moment later is still found.
import type { ElementHandle, Frame, Locator } from 'playwright-core';
import { isXPath, parseDeepXPath, SelectorSyntaxError, type FramePiece } from './deep-xpath.js';
import { walkPieceScript } from './walk-piece.js';

export interface ResolvedTarget {
  frame: Frame;
  element: ElementHandle<Element>;
}

export type Resolution = { found: true; target: ResolvedTarget } | { found: false; reason: string };

const POLL_MS = 100;

/**
 * A Playwright locator for a selector Playwright reads as we do: CSS, or a deep XPath that stays in one
 * document (no frame, no shadow root). An action on it finds its element and acts in one call, as
 * Playwright's own page.click does; undefined for the other selectors (resolveTarget walks them) and
 * for one that does not parse (resolveTarget says what is wrong).
 */
export function directLocator(frame: Frame, selector: string): Locator | undefined {
  if (!isXPath(selector)) return frame.locator(selector).first();
  const xpath = documentXPath(selector);
  return xpath === undefined ? undefined : frame.locator(`xpath=${xpath}`).first();
}

/** A deep XPath that stays in one document, as a plain XPath; undefined for the others. */
function documentXPath(selector: string): string | undefined {
  let pieces: FramePiece[];
  try {
    pieces = parseDeepXPath(selector);
  } catch {
    return undefined;
  }
  const [piece] = pieces;
  return pieces.length === 1 && piece!.shadow.length === 0 ? piece!.xpath : undefined;
}

/** A selector the page's own querySelector or XPath evaluation finds as Playwright's locator(...).first() does. */
export type PlainQuery = { css: string } | { xpath: string };

/**
 * The plain query for a direct selector whose first match in the document's light tree is Playwright's
 * first match too: an XPath in one document, or one compound CSS selector (`#go`, `button.primary[name="q"]`):
 * Playwright takes those from the document's querySelectorAll first and looks into shadow roots only
 * after. Combinators, pseudo-classes and Playwright's own syntax (`text=`, `>>`, `:has-text`) are left to
 * the locator, and so is a query the light tree does not answer.
 */
export function plainQuery(selector: string): PlainQuery | undefined {
  if (isXPath(selector)) {
    const xpath = documentXPath(selector);
    return xpath === undefined ? undefined : { xpath };
  }
  const bare = selector.trim().replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""').replace(/\[[^\]]*\]/g, '[]');
  return /^[\w\-#.*[\]\u00a0-\uffff]+$/.test(bare) ? { css: selector.trim() } : undefined;
}

export async function resolveTarget(frame: Frame, selector: string, timeoutMs: number): Promise<Resolution> {
  const deadline = Date.now() + timeoutMs;
  let pieces: FramePiece[] | undefined;
  try {
    pieces = isXPath(selector) ? parseDeepXPath(selector) : undefined;
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return { found: false, reason: `Invalid selector "${selector}": ${error.message}` };
    throw error;
  }
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

/** Each piece is walked in its frame; the element it reaches owns the next piece's frame. */
async function resolveDeepXPath(start: Frame, pieces: FramePiece[]): Promise<ResolvedTarget | null> {
  let frame = start;
  for (let i = 0; ; i++) {
    const handle = await frame.evaluateHandle(walkPieceScript, pieces[i]!);
    const element = handle.asElement() as ElementHandle<Element> | null;
    if (!element) {
      await handle.dispose();
      return null;
    }
    if (i === pieces.length - 1) return { frame, element };
    try {
      const child = await element.contentFrame();
      if (!child) return null;
      frame = child;
    } finally {
      await element.dispose().catch(() => undefined);
    }
  }
}

function isSelectorSyntaxError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /not a valid (selector|XPath)|Unexpected token|SyntaxError|is not a valid/i.test(message);
}
