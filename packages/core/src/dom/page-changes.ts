// When a document last changed in a way a look at it would show, seen from inside it: its DOM (light and
// shadow, roots followed as they are attached), its scrolls and its focus. One counter per document, made
// by whichever needs it first: the activity watch (for the DOM's quiet) or a replay picture's mark.

/** Where a document keeps its counter (a window property no page script enumerates). */
export const PAGE_CHANGES_KEY = '__deckhandChanges';

export interface PageChanges {
  /** Changes seen so far (DOM mutation batches, scrolls, focus moves). */
  count: number;
  /** `performance.now()` of the last DOM change (of the counter's start before any). */
  lastChange: number;
  /** Shadow roots followed. */
  shadowRoots: number;
  /** Follows `root` and the shadow roots under it not followed yet (made before the counter was). */
  follow(root: Node): void;
}

/**
 * Runs in the page (passed to inPage as a module): the document's counter under `key`, made now if it has
 * none. `listen` is the document's own addEventListener (the input hook's copy, where it has one).
 */
export function pageChanges(key: string, listen: typeof EventTarget.prototype.addEventListener, shadowRootOf: (el: Element) => ShadowRoot | null): PageChanges {
  const host = window as unknown as Record<string, PageChanges | undefined>;
  const existing = host[key];
  if (existing) return existing;
  const observer = new MutationObserver(() => {
    changes.lastChange = performance.now();
    changes.count++;
  });
  const followed = new WeakSet<Node>();
  const changes: PageChanges = {
    count: 0,
    lastChange: performance.now(),
    shadowRoots: 0,
    follow(root) {
      if (!followed.has(root)) {
        observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
        followed.add(root);
        if (root !== document) changes.shadowRoots++;
      }
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let el = walker.nextNode(); el; el = walker.nextNode()) {
        const shadow = shadowRootOf(el as Element);
        if (shadow) changes.follow(shadow);
      }
    },
  };
  changes.follow(document);
  // A root attached to an element already in the document changes no DOM an observer sees.
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = new Proxy(attach, {
    apply(target, self: Element, args: [ShadowRootInit]) {
      const root = Reflect.apply(target, self, args) as ShadowRoot;
      changes.count++;
      changes.follow(root);
      return root;
    },
  });
  const changed = () => changes.count++;
  for (const type of ['scroll', 'focusin', 'focusout']) listen.call(window, type, changed, { capture: true, passive: true });
  Object.defineProperty(window, key, { value: changes, enumerable: false, configurable: true });
  return changes;
}
