// Whether an action's press ended on the element pressed, seen from inside the page: installed with the
// page watch (activity-watch.ts) and restarted with it, so the act learns it in its first look, with no
// round trip of its own. Playwright answers once it has sent the input; a page that replaces or moves the
// element as it is pressed takes the click away from it (docs/decisions.md, "A click that never landed").

/**
 * How the last trusted press since the watch's restart ended: `landed` (its release or click reached the
 * node pressed), `displaced` (the page took the node pressed, or an ancestor, out of its document before
 * its release or click, even if it put it back at once: Chromium then gives the click to an ancestor),
 * `kept` (neither reached it, but that node still stands under the press point, and the press point holds
 * it: a page acting on the press, or stopping the click before the watch sees it), `covered` (it stands
 * there under something else), `detached` or `moved` (the node pressed left the press point before its
 * release). Absent: no trusted press was seen.
 */
export type PressOutcome = 'landed' | 'displaced' | 'kept' | 'covered' | 'detached' | 'moved';

export interface PressWatch {
  restart(): void;
  outcome(): PressOutcome | undefined;
}

/**
 * Runs in the page (passed to inPage as a module): the element at a viewport point, looked for inside open
 * shadow roots (what a pointer there would hit). The press watch and the click's landing check share it.
 */
export function elementAtPoint(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  for (let inner = hit?.shadowRoot?.elementFromPoint(x, y); inner && inner !== hit; inner = hit?.shadowRoot?.elementFromPoint(x, y)) hit = inner;
  return hit;
}

/**
 * Runs in the page (passed to inPage as a module): follows trusted presses with capture listeners on the
 * window, added through the page's original addEventListener (`listen`); `elementAt` is elementAtPoint.
 */
export function watchPresses(listen: typeof EventTarget.prototype.addEventListener, elementAt: typeof elementAtPoint): PressWatch {
  type Press = { node: EventTarget; x: number; y: number; landed: boolean; displaced: boolean };
  let press: Press | undefined;
  const host = window as unknown as Record<string, unknown>;
  // Whether `node` is `outer` or inside it, across shadow roots (native contains per tree: removals can be many).
  const inside = (node: Node | null, outer: Node) => {
    for (; node; node = (node.getRootNode() as Partial<ShadowRoot>).host ?? null) if (outer.contains(node)) return true;
    return false;
  };
  // Removals while a press is down (only then): the node pressed, or a subtree holding it, leaving its
  // document. Its own shadow roots are watched too, as a document does not report inside them.
  const holdsPressed = (records: MutationRecord[]) =>
    records.some((record) => [...record.removedNodes].some((removed) => press && inside(press.node as Node, removed)));
  const removals = new MutationObserver((records) => {
    if (press && !press.displaced && holdsPressed(records)) press.displaced = true;
  });
  const displaced = () => {
    if (press && !press.displaced && holdsPressed(removals.takeRecords())) press.displaced = true;
    return press?.displaced ?? false;
  };
  // Whether the point hits the node or something inside it, its shadow trees included.
  const holds = (node: Node, x: number, y: number) => inside(elementAt(x, y), node);
  const pressed = (event: Event) => {
    if (!event.isTrusted) return;
    const { clientX: x, clientY: y } = event as PointerEvent;
    press = { node: event.composedPath()[0] ?? event.target!, x, y, landed: false, displaced: false };
    removals.disconnect();
    for (let root: Node = (press.node as Node).getRootNode(); ; root = (root as ShadowRoot).host.getRootNode()) {
      removals.observe(root, { childList: true, subtree: true });
      if (!(root instanceof ShadowRoot)) break;
    }
  };
  // Each release or click of the press that reaches the node pressed, while it has stayed in its document:
  // what the element was given (a node the page removes on its release still had the release).
  const released = (event: Event) => {
    if (!event.isTrusted || !press || press.landed || !event.composedPath().includes(press.node) || displaced()) return;
    press.landed = true;
    removals.disconnect();
  };
  // The click paths since the press, read (rarely) when the node pressed left: whether the element acted on was in one.
  let clicks: EventTarget[][] = [];
  listen.call(window, 'pointerdown', (event) => {
    pressed(event);
    clicks = [];
  }, { capture: true });
  for (const type of ['pointerup', 'mouseup']) listen.call(window, type, released, { capture: true });
  // The click's target is set once it is dispatched: removals after it do not take it away.
  listen.call(window, 'click', (event) => {
    released(event);
    if (!event.isTrusted || !press) return;
    clicks.push(event.composedPath());
    displaced();
    removals.disconnect();
  }, { capture: true });
  Object.defineProperty(host, '__deckhandPresses', {
    value: {
      reached: (el: Element) => clicks.some((path) => path.includes(el)),
      point: () => press && { x: press.x, y: press.y },
      pressed: () => press?.node,
    },
    enumerable: false,
    configurable: true,
  });
  return {
    restart() {
      press = undefined;
      clicks = [];
      removals.disconnect();
    },
    outcome() {
      if (!press) return undefined;
      if (press.landed) return 'landed';
      const node = press.node as Element;
      if (!node.isConnected) return 'detached';
      if (displaced()) return 'displaced';
      const { x, y } = press;
      const under = [...node.getClientRects()].some((r) => x >= r.left - 1 && x <= r.right + 1 && y >= r.top - 1 && y <= r.bottom + 1);
      if (!under) return 'moved';
      return holds(node, x, y) ? 'kept' : 'covered';
    },
  };
}

