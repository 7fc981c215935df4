// A mark of what a replay picture shows, read in the page just before each picture is taken and again
// after a read (observe, extract): the same mark means the page is as the last picture shows it, so the
// read's step gets that picture instead of a new one (the browser's work halved in an agent's observe/act
// loop). The mark counts the document's changes from the first picture on (dom/page-changes.ts); a page it
// cannot follow whole gets a new picture each time: child frames, shadow roots, canvas or media, running
// animations, images or fonts still loading.
import type { Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { INPUT_HOOK_KEY } from '../browser/page-hooks/input-hook.js';
import { PAGE_CHANGES_KEY, pageChanges } from '../dom/page-changes.js';
import { inPage } from '../selectors/index.js';

const MARK = inPage(({ changesKey, inputHook }: { changesKey: string; inputHook: string }, lib): string | null => {
  const input = (window as unknown as Record<string, { addEventListener?: typeof EventTarget.prototype.addEventListener } | undefined>)[inputHook];
  const changes = lib.pageChanges(changesKey, input?.addEventListener ?? EventTarget.prototype.addEventListener, lib.shadowRootOf);
  if (changes.shadowRoots > 0) return null;
  if (document.querySelector('canvas, video, audio, iframe, frame, embed, object')) return null;
  if (document.fonts.status !== 'loaded' || [...document.images].some((image) => !image.complete)) return null;
  if (document.getAnimations().some((animation) => animation.playState === 'running')) return null;
  // A field's value or check a script sets changes no DOM; hashed, so no typed value leaves the page.
  let hash = 0x811c9dc5;
  for (const field of document.querySelectorAll<HTMLInputElement>('input, textarea, select')) {
    const text = `${field.value}\u0000${field.checked ? 1 : 0}\u0001`;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return [performance.timeOrigin, location.href, changes.count, scrollX, scrollY, innerWidth, innerHeight, hash].join(' ');
}, { pageChanges });
const EXPRESSION = `(${String(MARK)})(${JSON.stringify({ changesKey: PAGE_CHANGES_KEY, inputHook: INPUT_HOOK_KEY })})`;

/** The page's mark, or null when it cannot be marked (or did not answer). */
export async function pictureMark(page: Page): Promise<string | null> {
  const answer = await sendCdp<{ result: { value?: unknown } }>(page, 'Runtime.evaluate', { expression: EXPRESSION, returnByValue: true }).catch(() => undefined);
  return typeof answer?.result.value === 'string' ? answer.result.value : null;
}
