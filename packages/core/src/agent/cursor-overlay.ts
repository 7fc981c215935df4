// highlightCursor: a visible pointer drawn in the page while the agent acts, so a screenshot or anyone
// watching over CDP sees where it clicks. It follows the real mouse events the browser dispatches,
// takes no clicks (pointer-events: none), is hidden from the accessibility tree (so no snapshot reads
// it), is drawn again after each navigation, and is removed when the run ends.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { pageFunction } from '../selectors/in-page.js';

export const CURSOR_ID = '__deckhand_cursor';
/** Taking the cursor away never holds up the answer: a page that does not answer keeps it. */
const REMOVE_WAIT_MS = 1_000;

const install = pageFunction((id: string): void => {
  if (document.getElementById(id) || !document.documentElement) return;
  const dot = document.createElement('div');
  dot.id = id;
  dot.setAttribute('aria-hidden', 'true');
  dot.style.cssText =
    'position:fixed;left:0;top:0;width:18px;height:18px;margin:-9px 0 0 -9px;border-radius:50%;background:rgba(255,64,64,.55);' +
    'border:2px solid #fff;box-shadow:0 0 0 2px rgba(255,64,64,.9);pointer-events:none;z-index:2147483647;transition:transform .08s';
  document.documentElement.appendChild(dot);
  const follow = (event: MouseEvent) => {
    dot.style.left = `${event.clientX}px`;
    dot.style.top = `${event.clientY}px`;
  };
  for (const type of ['mousemove', 'mousedown'] as const) window.addEventListener(type, follow, { capture: true, passive: true });
});

function remove(id: string): void {
  document.getElementById(id)?.remove();
}

/** Draws the cursor now and after every navigation; the returned function takes it away. */
export async function showCursor(page: Page): Promise<() => Promise<void>> {
  const draw = () => void page.evaluate(install, CURSOR_ID).catch(() => undefined);
  page.on('domcontentloaded', draw);
  await page.evaluate(install, CURSOR_ID).catch(() => undefined);
  return async () => {
    page.off('domcontentloaded', draw);
    await Promise.race([page.evaluate(remove, CURSOR_ID).catch(() => undefined), sleep(REMOVE_WAIT_MS)]);
  };
}
