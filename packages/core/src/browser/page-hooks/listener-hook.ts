// Which elements a page script listens on for clicks or hovers: a menu that is a plain <div> with a
// mouseenter handler looks like text to the DOM, and only its listener says it does something. This
// init script (installed with the closed-shadow-root hook, see shadow-hook.ts) marks each element
// that gets a pointer listener; the snapshot reads the marks.

export const POINTER_LISTENERS_KEY = '__deckhandPointerListeners';

/**
 * Mark bits: 1 the element listens for clicks (or presses), 2 for the pointer entering it, 4 for the
 * click or the release itself (what a press taken away from the element never gives it: click-landing.ts).
 */
export const LISTENER_HOOK_SCRIPT = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, '${POINTER_LISTENERS_KEY}')) return;
  const marks = new WeakMap();
  Object.defineProperty(window, '${POINTER_LISTENERS_KEY}', { value: marks, enumerable: false });
  const kinds = { click: 5, mousedown: 1, mouseup: 5, pointerdown: 1, pointerup: 5, dblclick: 1, mouseenter: 2, mouseover: 2, pointerenter: 2, pointerover: 2 };
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function addEventListener(type, listener, options) {
    const kind = kinds[type];
    if (kind && this instanceof Element) marks.set(this, (marks.get(this) || 0) | kind);
    return add.call(this, type, listener, options);
  };
})();`;

/** In-page: the listener mark bits of an element (0 when none, or when the hook is not installed). Serialisable. */
export function pointerListenersOf(el: Element): number {
  const marks = (window as unknown as Record<string, WeakMap<Element, number> | undefined>)['__deckhandPointerListeners'];
  return marks?.get(el) ?? 0;
}
