// The one screenshot of the core: the viewport, the whole page (cut at a height cap) or one element,
// as PNG or JPEG. The screenshot endpoint and the agent/MCP screenshot tool both take it.
import type { Frame, Page } from 'playwright-core';
import { DeckhandError } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { resolveTarget } from '../selectors/index.js';
import type { FrameId } from '../types.js';

/** A full-page picture stops here (CSS px): taller is a 16k-by-16k texture, past what Chromium renders at once. */
export const FULL_PAGE_MAX_HEIGHT = 16_384;
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
  /** A full-page picture was cut at FULL_PAGE_MAX_HEIGHT. */
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
  if (element) {
    try {
      return { bytes: await scope.deadline.race(element.screenshot(common)), mediaType, truncated: false };
    } finally {
      void element.dispose().catch(() => undefined);
    }
  }
  if (!options.fullPage) return { bytes: await scope.deadline.race(scope.page.screenshot(common)), mediaType, truncated: false };
  const { width, height } = await pageSize(scope.page);
  const truncated = height > FULL_PAGE_MAX_HEIGHT;
  const clip = truncated ? { clip: { x: 0, y: 0, width, height: FULL_PAGE_MAX_HEIGHT } } : {};
  return { bytes: await scope.deadline.race(scope.page.screenshot({ ...common, fullPage: true, ...clip })), mediaType, truncated };
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

function pageSize(page: Page): Promise<{ width: number; height: number }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    return { width: Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0), height: Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0) };
  });
}
