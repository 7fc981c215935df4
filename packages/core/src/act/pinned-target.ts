// A grounded element (chosen from a snapshot by a model, or by the act cache) is acted on by handle, not
// by its selector: when the page swaps it for another in the same place mid-action, Playwright's retry
// fails on the detached element instead of re-resolving the selector to the replacement and acting there.
import type { ElementHandle, Frame } from 'playwright-core';
import { resolveTarget } from '../selectors/index.js';

/**
 * Why the pinned element could not be acted on when the page replaced or removed it, naming what now
 * stands at its selector (the candidate the act refused to touch); undefined while it is still attached.
 */
export async function replacedMessage(element: ElementHandle<Element>, at: { frame: Frame; selector: string; chosen: string; verb: string }): Promise<string | undefined> {
  const attached = await element.evaluate((el) => el.isConnected).catch(() => false);
  if (attached) return undefined;
  const now = await resolveTarget(at.frame, at.selector, 0);
  let there = 'nothing';
  if (now.found) {
    there = await now.target.element.evaluate(describeElement).catch(() => 'an element that could not be read');
    void now.target.element.dispose().catch(() => undefined);
  }
  return `The page replaced the element chosen (${at.chosen}) while it was being ${at.verb}; nothing was ${at.verb}. Its place now holds ${there}, which was not acted on: read the page again and act on what it now shows`;
}

/** Role, then label or text, as a caller would recognise the element (runs in the page). */
export function describeElement(el: Element): string {
  const tag = el.tagName.toLowerCase();
  const role = el.getAttribute('role') ?? (tag === 'input' ? `${(el as HTMLInputElement).type} input` : tag);
  const labelled = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? (el as HTMLElement).innerText ?? '';
  const name = labelled.replace(/\s+/g, ' ').trim().slice(0, 80);
  // Quoted as JSON, so a name holding quotes cannot end the quote and pass for our words.
  return name ? `${role} ${JSON.stringify(name)}` : `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}
