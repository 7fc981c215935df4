// Whether a trusted click may still have effects after its dispatch, seen from inside the page as the
// click reaches the window: HTML's activation behaviour runs after the dispatch (a link's or a form's
// navigation, a <details> toggle, a checkbox's change, a popover or dialog command) and queues tasks of
// its own, and an open popover or dialog queues its toggle events. A click with none of these has had
// all of its effects once its dispatch ends, so the page watch can report it at once instead of two
// tasks later, which Chromium runs only after the frame the input caused (docs/decisions.md,
// "Act within 10 ms of the click").

/** Runs in the page (passed to inPage as a module). Errs on the side of yes: a yes only costs the wait. */
export function clickMayQueue(event: Event): boolean {
  if (document.querySelector(':popover-open, dialog[open]')) return true;
  for (const node of event.composedPath()) {
    if (!(node instanceof Element)) continue;
    const tag = node.localName;
    if (tag === 'input' || tag === 'summary' || tag === 'label' || tag === 'select' || tag === 'option' || tag === 'textarea') return true;
    if (tag === 'video' || tag === 'audio' || ((tag === 'a' || tag === 'area') && node.hasAttribute('href'))) return true;
    if (node instanceof HTMLElement && node.isContentEditable) return true;
    if (tag === 'button' && (node.hasAttribute('popovertarget') || node.hasAttribute('commandfor') || ((node as HTMLButtonElement).form && (node as HTMLButtonElement).type !== 'button'))) return true;
  }
  return false;
}
