// An action that could not be done for a reason the caller should read (act reports success: false).
import type { ElementHandle } from 'playwright-core';
import { browserFailure } from '../errors.js';

export class ActionFailure extends Error {
  override readonly name = 'ActionFailure';
}

/** Why Playwright refused an element, in words: the element's state first, else Playwright's reason. */
export async function explainRefusal(element: ElementHandle<Element>, error: unknown): Promise<ActionFailure> {
  if (error instanceof ActionFailure) return error;
  const state = await element
    .evaluate((el) => ({
      connected: el.isConnected,
      disabled: (el as HTMLInputElement).disabled === true || el.getAttribute('aria-disabled') === 'true',
      visible: el.checkVisibility(),
    }))
    .catch(() => ({ connected: false, disabled: false, visible: false }));
  if (!state.connected) return new ActionFailure('Element is no longer attached to the page');
  if (state.disabled) return new ActionFailure('Element is disabled');
  if (!state.visible) return new ActionFailure('Element is not visible');
  // Playwright's own words for this ("Timeout 3000ms exceeded.") say nothing a caller can act on.
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new ActionFailure('Element did not become actionable in time: it must be visible, stable, enabled and not covered by another element');
  }
  return new ActionFailure(browserFailure(error));
}
