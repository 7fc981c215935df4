// A main-frame element held by the page's own CDP session instead of a Playwright handle, for an action
// that only evaluates in its element (a pinned click or tick: its state, the aim, the landing, the end
// state, a refusal's reading). Playwright makes every element handle a client object, a dispatcher and a
// preview evaluation, and disposes of it in another round trip: for a natural-language act's click that
// was the largest part of its grounding's server CPU (bench/results/server-cpu.md). The element is the one
// the path names when it is looked up, kept by reference as a handle keeps it, so a replacement in its
// place is never acted on.
import type { ElementHandle, Frame, Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { PageScriptError } from '../errors.js';
import { isXPath, parseDeepXPath, type FramePiece } from './deep-xpath.js';
import { resolveTarget, type Resolution } from './resolve-target.js';
import { walkPieceScript } from './walk-piece.js';

const WALK_PIECE = String(walkPieceScript);

/** Names the remote objects of one element, released together. */
let elements = 0;

interface Evaluated {
  result: { value?: unknown; objectId?: string; subtype?: string };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

/** The element handle's `evaluate` and `dispose`, which is all a pinned click or tick asks of its element. */
class RemoteElement {
  constructor(
    private readonly page: Page,
    private readonly objectId: string,
    private readonly objectGroup: string,
  ) {}

  /** Runs `fn(element, arg)` in the page's main world and answers its value (a promise awaited), as ElementHandle.evaluate does. */
  async evaluate<R, A>(fn: (element: Element, arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    const { result, exceptionDetails } = await sendCdp<Evaluated>(this.page, 'Runtime.callFunctionOn', {
      objectId: this.objectId,
      // Functions compiled by tsx may name their inner functions through esbuild's helper.
      functionDeclaration: `function (arg) { const __name = (f) => f; return (${String(fn)})(this, arg); }`,
      arguments: arg === undefined ? [] : [{ value: arg }],
      awaitPromise: true,
      returnByValue: true,
    });
    // The page's own exception, which Playwright's evaluate reports as one too (errors.ts).
    if (exceptionDetails) throw new PageScriptError(exceptionDetails.exception?.description ?? exceptionDetails.text ?? 'the evaluation failed');
    return result.value as R;
  }

  async dispose(): Promise<void> {
    await sendCdp(this.page, 'Runtime.releaseObjectGroup', { objectGroup: this.objectGroup });
  }
}

/**
 * The element a pinned click or tick acts on: in the main frame, named by a deep XPath that crosses no frame,
 * held by the page's CDP session; any other, or one not there at the first look, through Playwright's
 * reader, which waits for it. The caller only evaluates in the element and disposes of it.
 */
export async function resolvePinned(frame: Frame, selector: string, timeoutMs: number): Promise<Resolution> {
  const page = frame.page();
  const piece = frame === page.mainFrame() ? onePiece(selector) : undefined;
  const element = piece ? await remoteElement(page, piece) : null;
  // Stands in for a handle on the click's and the tick's path, which ask nothing of it but evaluate and dispose.
  if (element) return { found: true, target: { frame, element: element as unknown as ElementHandle<Element> } };
  return resolveTarget(frame, selector, timeoutMs);
}

function onePiece(selector: string): FramePiece | undefined {
  if (!isXPath(selector)) return undefined;
  try {
    const pieces = parseDeepXPath(selector);
    return pieces.length === 1 ? pieces[0] : undefined;
  } catch {
    // Playwright's reader says what is wrong with it.
    return undefined;
  }
}

/** The element a piece of a deep XPath names in the page's main frame, or null when there is none (or the page could not say). */
async function remoteElement(page: Page, piece: FramePiece): Promise<RemoteElement | null> {
  const objectGroup = `deckhand-element-${++elements}`;
  const found = await sendCdp<Evaluated>(page, 'Runtime.evaluate', { expression: `(${WALK_PIECE})(${JSON.stringify(piece)})`, objectGroup }).catch(() => null);
  const objectId = found?.result.objectId;
  if (objectId && !found.exceptionDetails && found.result.subtype === 'node') return new RemoteElement(page, objectId, objectGroup);
  // Nothing waits for the page to let the objects go.
  if (objectId) void sendCdp(page, 'Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
  return null;
}
