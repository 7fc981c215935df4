// The first listener of the window's capture phase for the pointer and key events the page watch follows
// (dom/activity-watch.ts, dom/press-watch.ts). Installed at document start, before any page script, so a
// page's own early listener cannot stop these events before the watch sees them, and a page that replaces
// addEventListener later cannot keep the watch from listening: the watch registers its handlers here, and
// takes the original addEventListener from here for the rest.

export const INPUT_HOOK_KEY = '__deckhandInput';

export const INPUT_HOOK_SCRIPT = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, '${INPUT_HOOK_KEY}')) return;
  const add = EventTarget.prototype.addEventListener;
  const handlers = new Map();
  // Every handler runs, whatever another does to the event: a page's handler registered here cannot stop ours.
  const dispatch = (event) => {
    for (const handler of [...(handlers.get(event.type) || [])]) {
      try { handler(event); } catch {}
    }
  };
  for (const type of ['pointermove', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'keydown']) add.call(window, type, dispatch, { capture: true });
  Object.defineProperty(window, '${INPUT_HOOK_KEY}', {
    value: Object.freeze({
      on(type, handler) {
        if (!handlers.has(type)) handlers.set(type, new Set());
        handlers.get(type).add(handler);
      },
      addEventListener: add,
    }),
    enumerable: false,
  });
})();`;

/** What the hook offers in the page (absent in a document it was not installed in). */
export interface InputHook {
  on(type: string, handler: (event: Event) => void): void;
  addEventListener: typeof EventTarget.prototype.addEventListener;
}
