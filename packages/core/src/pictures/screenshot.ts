// The one screenshot of the core: the viewport, the whole page (cut at a height cap) or one element,
// as PNG or JPEG. The screenshot endpoint and the agent/MCP screenshot tool both take it. A picture holds
// at most PICTURE_MAX_DEVICE_PIXELS: a wider or denser page is cut to it (and says so), since Chromium
// holds the whole bitmap in memory (a 30,000 px wide page took 3.3 GB).
import type { ElementHandle, Frame, Page } from 'playwright-core';
import { browserFailure, DeckhandError, isDeckhandError } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { resolveTarget } from '../selectors/index.js';
import type { FrameId } from '../types.js';

/** A full-page picture stops here (CSS px): taller is a 16k-by-16k texture, past what Chromium renders at once. */
export const FULL_PAGE_MAX_HEIGHT = 16_384;
/** No edge of a picture past this many device pixels (Chromium's largest texture). */
export const PICTURE_MAX_EDGE = 16_384;
/** A picture's device pixels (width × height × deviceScaleFactor²) stop here: 8192², 256 MB as a bitmap. */
export const PICTURE_MAX_DEVICE_PIXELS = (16_384 * 16_384) / 4;
const DEFAULT_JPEG_QUALITY = 80;
/** A screenshot waits for the browser this long at most, within the operation's deadline. */
const SCREENSHOT_TIMEOUT_MS = 30_000;
/** How long a selector may take to match (an element that appears a moment later is still found). */
const ELEMENT_LOOKUP_MS = 1_000;

export interface ScreenshotOptions {
  type?: 'png' | 'jpeg';
  quality?: number;
  fullPage?: boolean;
  selector?: string;
  frameId?: FrameId;
}

export interface Screenshot {
  bytes: Buffer;
  mediaType: 'image/png' | 'image/jpeg';
  /** The picture was cut: a full page at FULL_PAGE_MAX_HEIGHT, or any picture at PICTURE_MAX_EDGE / PICTURE_MAX_DEVICE_PIXELS. */
  truncated: boolean;
}

export function checkScreenshotOptions(options: ScreenshotOptions): void {
  if (options.quality !== undefined && options.type !== 'jpeg') {
    throw new DeckhandError('validation_error', 'body.quality: only for type jpeg (PNG is lossless)', [{ path: 'body.quality', message: 'only for type jpeg' }]);
  }
}

export async function takeScreenshot(scope: OperationScope, options: ScreenshotOptions): Promise<Screenshot> {
  checkScreenshotOptions(options);
  const type = options.type ?? 'png';
  const common = {
    type,
    ...(type === 'jpeg' ? { quality: options.quality ?? DEFAULT_JPEG_QUALITY } : {}),
    timeout: scope.deadline.remaining(SCREENSHOT_TIMEOUT_MS),
    animations: 'allow' as const,
    caret: 'initial' as const,
  };
  const mediaType = type === 'png' ? ('image/png' as const) : ('image/jpeg' as const);
  const frame = await scope.frame(options.frameId);
  const element = options.selector ? await elementOf(frame, options.selector) : frame === scope.page.mainFrame() ? undefined : await frameElement(frame);
  try {
    if (element) {
      try {
        await checkElementSize(scope.page, element);
        return { bytes: await scope.deadline.race(element.screenshot(common)), mediaType, truncated: false };
      } finally {
        void element.dispose().catch(() => undefined);
      }
    }
    const size = await scope.deadline.race(pageSize(scope.page));
    // A document without a root element has no size; Playwright's full page would wait on it until the timeout.
    const fullPage = options.fullPage === true && size.width > 0 && size.height > 0;
    const whole = fullPage ? { width: size.width, height: Math.min(size.height, FULL_PAGE_MAX_HEIGHT) } : size.viewport;
    const cut = withinBound(whole, size.scale);
    const truncated = cut.width < whole.width || cut.height < whole.height || (fullPage && size.height > FULL_PAGE_MAX_HEIGHT);
    const clip = truncated ? { clip: { x: 0, y: 0, ...cut } } : {};
    return { bytes: await scope.deadline.race(scope.page.screenshot({ ...common, fullPage, ...clip })), mediaType, truncated };
  } catch (error) {
    throw asScreenshotError(scope.page, error);
  }
}

/** The largest top-left part of `size` (CSS px) within the picture bounds at `scale` device pixels per CSS px. */
function withinBound(size: { width: number; height: number }, scale: number): { width: number; height: number } {
  const edge = Math.floor(PICTURE_MAX_EDGE / scale);
  const width = Math.max(1, Math.min(size.width, edge));
  const height = Math.max(1, Math.min(size.height, edge, Math.floor(PICTURE_MAX_DEVICE_PIXELS / (width * scale * scale))));
  return { width, height };
}

/** An element picture is not cut (a part of an element is not what was asked): one past the bounds is refused. */
async function checkElementSize(page: Page, element: ElementHandle): Promise<void> {
  const box = await element.boundingBox();
  if (!box) return;
  const scale = await page.evaluate(() => window.devicePixelRatio);
  const cut = withinBound({ width: Math.ceil(box.width), height: Math.ceil(box.height) }, scale);
  if (cut.width >= Math.ceil(box.width) && cut.height >= Math.ceil(box.height)) return;
  throw new DeckhandError(
    'unprocessable',
    `The element is ${Math.ceil(box.width)}×${Math.ceil(box.height)} px at device scale ${scale}, past a picture's bound (${PICTURE_MAX_DEVICE_PIXELS} device pixels, ${PICTURE_MAX_EDGE} px an edge): picture the full page instead (it is cut to the bound and marked truncated)`,
  );
}

/** Chromium's failures to picture a live page are the picture's, not the server's: 408 on its own timeout, else 422. */
function asScreenshotError(page: Page, error: unknown): unknown {
  if (isDeckhandError(error) || page.isClosed()) return error;
  if (error instanceof Error && error.name === 'TimeoutError') return new DeckhandError('timeout', `The browser did not finish the screenshot in time: ${browserFailure(error)}`, undefined, { cause: error });
  return new DeckhandError('unprocessable', `The browser could not take the screenshot: ${browserFailure(error)}`, undefined, { cause: error });
}

/** The element a selector names; none on this page is a request that cannot be carried out here (422), as for observe's scope. */
async function elementOf(frame: Frame, selector: string) {
  const found = await resolveTarget(frame, selector, ELEMENT_LOOKUP_MS);
  if (!found.found) throw new DeckhandError('unprocessable', `selector: ${found.reason}`);
  return found.target.element;
}

/** The element that holds a child frame: a frameId alone pictures that frame as it shows in the page. */
async function frameElement(frame: Frame) {
  try {
    return await frame.frameElement();
  } catch {
    throw new DeckhandError('frame_not_found', 'frameId: the frame is gone from the page');
  }
}

/** The page's scrollable size and its viewport (CSS px), and its device pixels per CSS px. */
function pageSize(page: Page): Promise<{ width: number; height: number; viewport: { width: number; height: number }; scale: number }> {
  return page.evaluate(() => {
    // A document the browser has just created for a navigation has no root element yet.
    const root = document.documentElement;
    return {
      width: Math.max(root?.scrollWidth ?? 0, document.body?.scrollWidth ?? 0),
      height: Math.max(root?.scrollHeight ?? 0, document.body?.scrollHeight ?? 0),
      viewport: { width: window.innerWidth, height: window.innerHeight },
      scale: window.devicePixelRatio || 1,
    };
  });
}
