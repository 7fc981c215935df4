// A mark of what a replay picture shows, read in the page just before each picture is taken and again
// after a read (observe, extract): the same mark means the page is as the last picture shows it, so the
// read's step gets that picture instead of a new one (the browser's work halved in an agent's observe/act
// loop). The mark counts the document's changes from the first picture on (dom/page-changes.ts); a page it
// cannot follow whole gets a new picture each time: child frames, shadow roots, canvas or media, running
// animations (SVG's too), images or fonts still loading. What a script changes with no DOM mutation is read
// into the mark too: field values, checks, indeterminate boxes, every selected option, validity messages,
// open popovers, the text selection, highlights, animations held at their end, and the style sheets' rule
// counts (adopted sheets too). Not read: a rule's style edited in place through the CSSOM, and custom
// states (:state()); a picture shared across such an edit shows the page before it.
import type { Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { INPUT_HOOK_KEY } from '../browser/page-hooks/input-hook.js';
import { PAGE_CHANGES_KEY, pageChanges } from '../dom/page-changes.js';
import { inPage } from '../selectors/index.js';

const MARK = inPage(({ changesKey, inputHook }: { changesKey: string; inputHook: string }, lib): string | null => {
  const input = (window as unknown as Record<string, { addEventListener?: typeof EventTarget.prototype.addEventListener } | undefined>)[inputHook];
  const changes = lib.pageChanges(changesKey, input?.addEventListener ?? EventTarget.prototype.addEventListener, lib.shadowRootOf);
  if (changes.shadowRoots > 0) return null;
  if (document.querySelector('canvas, video, audio, iframe, frame, embed, object, animate, animateMotion, animateTransform, set')) return null;
  if (document.fonts.status !== 'loaded' || [...document.images].some((image) => !image.complete)) return null;
  if (document.getAnimations().some((animation) => animation.playState === 'running')) return null;
  // What a script sets with no DOM change; hashed, so no typed value leaves the page.
  const parts: unknown[] = [];
  for (const field of document.querySelectorAll<HTMLInputElement>('input, textarea, select')) {
    const chosen = field instanceof HTMLSelectElement ? [...field.selectedOptions].map((o) => o.index).join(',') : '';
    parts.push(field.value, field.checked, field.indeterminate, chosen, field.validationMessage, field.selectionStart, field.selectionEnd);
  }
  const sheets = [...document.styleSheets, ...document.adoptedStyleSheets];
  for (const sheet of sheets) {
    try {
      parts.push(sheet.cssRules.length, sheet.disabled, sheet.media.mediaText);
    } catch {
      parts.push('cross-origin');
    }
  }
  const selection = getSelection();
  parts.push(document.querySelectorAll(':popover-open').length, selection?.toString(), selection?.anchorOffset, selection?.focusOffset, CSS.highlights?.size);
  for (const animation of document.getAnimations()) parts.push(animation.playState, animation.currentTime);
  let hash = 0x811c9dc5;
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return [performance.timeOrigin, location.href, changes.count, scrollX, scrollY, innerWidth, innerHeight, sheets.length, hash].join(' ');
}, { pageChanges });
const EXPRESSION = `(${String(MARK)})(${JSON.stringify({ changesKey: PAGE_CHANGES_KEY, inputHook: INPUT_HOOK_KEY })})`;

/** The page's mark, or null when it cannot be marked (or did not answer). */
export async function pictureMark(page: Page): Promise<string | null> {
  const answer = await sendCdp<{ result: { value?: unknown } }>(page, 'Runtime.evaluate', { expression: EXPRESSION, returnByValue: true }).catch(() => undefined);
  return typeof answer?.result.value === 'string' ? answer.result.value : null;
}
