// Closed shadow roots are invisible to page scripts. This init script, installed on every context
// before any page script runs, remembers each closed root so our in-page code can walk into it.
// Declarative closed roots (<template shadowrootmode="closed">) are not seen by it. The same script
// carries the input hook (input-hook.ts), the pointer-listener hook (listener-hook.ts) and the channel hook (channel-hook.ts): one script,
// installed where contexts are made.
import { CHANNEL_HOOK_SCRIPT } from './channel-hook.js';
import { LISTENER_HOOK_SCRIPT } from './listener-hook.js';
import { INPUT_HOOK_SCRIPT } from './input-hook.js';

export const CLOSED_ROOTS_KEY = '__deckhandClosedRoots';

const CLOSED_ROOTS_SCRIPT = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, '${CLOSED_ROOTS_KEY}')) return;
  const roots = new WeakMap();
  Object.defineProperty(window, '${CLOSED_ROOTS_KEY}', { value: roots, enumerable: false });
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function attachShadow(init) {
    const root = attach.call(this, init);
    if (init && init.mode === 'closed') roots.set(this, root);
    return root;
  };
})();`;

export const SHADOW_HOOK_SCRIPT = `${INPUT_HOOK_SCRIPT}\n${CLOSED_ROOTS_SCRIPT}\n${LISTENER_HOOK_SCRIPT}\n${CHANNEL_HOOK_SCRIPT}`;

/** In-page: the open or closed shadow root of an element, or null. Serialisable (no closures). */
export function shadowRootOf(el: Element): ShadowRoot | null {
  const closed = (window as unknown as Record<string, WeakMap<Element, ShadowRoot> | undefined>)['__deckhandClosedRoots'];
  return el.shadowRoot ?? closed?.get(el) ?? null;
}
