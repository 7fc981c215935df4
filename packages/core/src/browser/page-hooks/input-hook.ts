// The first listener of the window's capture phase for the pointer and key events the page watch follows
// (dom/activity-watch.ts, dom/press-watch.ts). Installed at document start, before any page script, so a
// page's own early listener cannot stop these events before the watch sees them, and a page that replaces
// addEventListener later cannot keep the watch from listening: the watch registers its handlers here, and
// takes the original addEventListener from here for the rest.

export const INPUT_HOOK_KEY = '__deckhandInput';

export const INPUT_HOOK_SCRIPT = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, '${INPUT_HOOK_KEY}')) return;
  const __name = (f) => f;
  const add = EventTarget.prototype.addEventListener;
  const handlers = new Map();
  // Every handler runs, whatever another does to the event: a page's handler registered here cannot stop ours.
  const dispatch = (event) => {
    for (const handler of [...(handlers.get(event.type) || [])]) {
      try { handler(event); } catch {}
    }
  };
  const listenFirst = () => {
    for (const type of ['pointermove', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'keydown']) add.call(window, type, dispatch, { capture: true });
  };
  listenFirst();
  Object.defineProperty(window, '${INPUT_HOOK_KEY}', {
    value: Object.freeze({
      // Listens again where document.open() erased the window's listeners (no-op otherwise: the same listener is added once).
      rearm: listenFirst,
      on(type, handler) {
        if (!handlers.has(type)) handlers.set(type, new Set());
        handlers.get(type).add(handler);
      },
      addEventListener: add,
      // The DOM functions a click's check calls, as the browser made them: a page that replaces them later
      // cannot make the check hang or see what is not there (act/pointer-click.ts).
      native: Object.freeze((${domFunctions})()),
    }),
    enumerable: false,
  });
})();`;

/** What the hook offers in the page (absent in a document it was not installed in). */
export interface InputHook {
  on(type: string, handler: (event: Event) => void): void;
  rearm(): void;
  addEventListener: typeof EventTarget.prototype.addEventListener;
  native: NativeDom;
}

/** The browser's own DOM functions, taken at document start (call the methods with the element or document as `this`). */
export interface NativeDom {
  frame(callback: () => void): number;
  style(el: Element): CSSStyleDeclaration;
  rects: typeof Element.prototype.getClientRects;
  rect: typeof Element.prototype.getBoundingClientRect;
  visible: typeof Element.prototype.checkVisibility;
  scroll: typeof Element.prototype.scrollIntoView;
  closest: typeof Element.prototype.closest;
  matches: typeof Element.prototype.matches;
  at: typeof Document.prototype.elementFromPoint;
  atInShadow: typeof ShadowRoot.prototype.elementFromPoint;
  query: typeof Document.prototype.querySelector;
  evaluate: typeof Document.prototype.evaluate;
  /** Node.prototype.parentNode's getter. */
  parent: (this: Node) => ParentNode | null;
  path: typeof Event.prototype.composedPath;
  stop: typeof Event.prototype.stopImmediatePropagation;
  prevent: typeof Event.prototype.preventDefault;
}

/**
 * In-page: the browser's DOM functions the click's check and the press watch call, as the document has them
 * now (the hook takes them before any page script runs). Serialisable (no closures).
 */
export function domFunctions(): NativeDom {
  return {
    frame: requestAnimationFrame.bind(window),
    style: getComputedStyle.bind(window),
    rects: Element.prototype.getClientRects,
    rect: Element.prototype.getBoundingClientRect,
    visible: Element.prototype.checkVisibility,
    scroll: Element.prototype.scrollIntoView,
    closest: Element.prototype.closest,
    matches: Element.prototype.matches,
    at: Document.prototype.elementFromPoint,
    atInShadow: ShadowRoot.prototype.elementFromPoint,
    query: Document.prototype.querySelector,
    evaluate: Document.prototype.evaluate,
    parent: Object.getOwnPropertyDescriptor(Node.prototype, 'parentNode')!.get as (this: Node) => ParentNode | null,
    path: Event.prototype.composedPath,
    stop: Event.prototype.stopImmediatePropagation,
    prevent: Event.prototype.preventDefault,
  };
}

/**
 * In-page: the hook's DOM functions, or the document's current ones where the hook is not installed.
 * Serialisable; pass it to inPage as a module, with domFunctions.
 */
export function nativeDom(): NativeDom {
  const hooked = (window as unknown as Record<string, InputHook | undefined>)['__deckhandInput'];
  return hooked ? hooked.native : domFunctions();
}
