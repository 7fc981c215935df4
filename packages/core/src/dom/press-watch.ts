// Whether an action's press ended on the element pressed, seen from inside the page: installed with the
// page watch (activity-watch.ts) and restarted with it, so the act learns it in its first look, with no
// round trip of its own. Playwright answers once it has sent the input; a page that replaces or moves the
// element as it is pressed takes the click away from it (docs/decisions.md, "A click that never landed").
import type { NativeDom } from '../browser/page-hooks/input-hook.js';

/**
 * How the last trusted press since the watch's restart ended: `landed` (its release or click reached the
 * node pressed), `displaced` (the page took the node pressed, or an ancestor, out of its document before
 * its release or click, even if it put it back at once: Chromium then gives the click to an ancestor),
 * `kept` (neither reached it, but that node still stands under the press point, and the press point holds
 * it: a page acting on the press, or stopping the click before the watch sees it), `covered` (it stands
 * there under something else), `detached` or `moved` (the node pressed left the press point before its
 * release), `intercepted` (an act aimed the press at an element, and it landed on another, or on no element
 * of this document: the watch held it back from the page, pointer-click.ts), `redirected` (the release of an
 * aimed press went to an element that neither holds nor contains the one aimed at, while that one still
 * held the press point, as a pointer capture sends it: held back too). Absent: no trusted press was seen.
 */
export type PressOutcome = 'landed' | 'displaced' | 'kept' | 'covered' | 'detached' | 'moved' | 'intercepted' | 'redirected';

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
 * Runs in the page (passed to inPage as a module): follows trusted presses with the first capture listeners
 * of the window (`early`: the input hook's, page-hooks/input-hook.ts); `elementAt` is elementAtPoint.
 */
export function watchPresses(
  early: (type: string, handler: (event: Event) => void) => void,
  elementAt: typeof elementAtPoint,
  n: Pick<NativeDom, 'path' | 'stop' | 'prevent'>,
  listens: (el: Element) => number,
): PressWatch {
  type Press = { node: EventTarget; x: number; y: number; landed: boolean; displaced: boolean; intercepted: boolean; redirected?: boolean; aimed?: Element };
  // The event's path and its stopping, as the browser made them (`n`: the input hook's; a page may replace Event's methods).
  const pathOf = (event: Event) => n.path.call(event);
  let press: Press | undefined;
  // The element an act aims its next press at, for a moment (pointer-click.ts checked that a pointer at
  // the press point hits it): a press landing on anything else, something the page put there in between,
  // is held back from the page, its release and click with it, as Playwright's hit-target check does.
  let aim: { el: Element; hit: Element; until: number } | undefined;
  const AIM_MS = 1_000;
  // The element itself, or the host of the closed shadow tree it is in, which is what a window listener sees.
  const seenFromWindow = (el: Element): Node => {
    let node: Node = el;
    for (let root = node.getRootNode(); root instanceof ShadowRoot && root.mode === 'closed'; root = node.getRootNode()) node = root.host;
    return node;
  };
  // A release or click of an aimed press that goes to another element while the element aimed at still
  // holds the press point (the page captured the pointer for another element, say): held back as well.
  // A capture by the element or an ancestor (a slider's track) keeps the release on it, and is the page's own.
  const redirected = (event: Event) => {
    if (!event.isTrusted || !press?.aimed || press.intercepted || press.redirected) return false;
    const path = pathOf(event);
    if (path.includes(seenFromWindow(press.aimed)) || (path[0] instanceof Node && inside(press.aimed, path[0]))) return false;
    const { clientX: x, clientY: y } = event as MouseEvent;
    if (!inside(elementAt(x, y), press.aimed)) return false;
    press.redirected = true;
    return holdBack(event);
  };
  const holdBack = (event: Event) => {
    if (!event.isTrusted || !(press?.intercepted || press?.redirected)) return false;
    n.prevent.call(event);
    n.stop.call(event);
    return true;
  };
  // A control the page put inside the element aimed at, under the pointer, after the aim (a row's delete
  // button shown on hover): the press is not for it. What was hit at the aim, or holds it, is the element's.
  const CONTROL = 'a[href], button, input, select, textarea, summary, [role=button], [role=link], [role=menuitem], [role=checkbox], [role=option], [onclick]';
  const newControl = (node: Node, aimed: { el: Element; hit: Element }) => {
    if (inside(aimed.hit, node)) return false;
    let steps = 0;
    for (let at: Node | null = node; at && at !== aimed.el && steps < 10_000; at = at.parentNode ?? (at as ShadowRoot).host ?? null, steps++) {
      // A control by its kind, or by a click or press listener of its own (the listener hook's bits 1 and 4).
      if (at instanceof Element && (at.matches(CONTROL) || (listens(at) & 5) !== 0)) return true;
    }
    return false;
  };
  const host = window as unknown as Record<string, unknown>;
  // Whether `node` is `outer` or inside it, across shadow roots (native contains per tree: removals can be many).
  const inside = (node: Node | null, outer: Node) => {
    for (let steps = 0; node && steps < 1_000; node = (node.getRootNode() as Partial<ShadowRoot>).host ?? null, steps++) if (outer.contains(node)) return true;
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
    const aimed = aim;
    aim = undefined;
    const path = pathOf(event);
    const node = path[0] ?? event.target!;
    const live = aimed !== undefined && performance.now() <= aimed.until;
    const intercepted = live && (!path.includes(seenFromWindow(aimed.el)) || (node instanceof Node && newControl(node, aimed)));
    press = { node, x, y, landed: false, displaced: false, intercepted, aimed: live && !intercepted ? aimed.el : undefined };
    removals.disconnect();
    for (let root: Node = (press.node as Node).getRootNode(), steps = 0; steps < 1_000; root = (root as ShadowRoot).host.getRootNode(), steps++) {
      removals.observe(root, { childList: true, subtree: true });
      if (!(root instanceof ShadowRoot)) break;
    }
  };
  // Each release or click of the press that reaches the node pressed, while it has stayed in its document:
  // what the element was given (a node the page removes on its release still had the release).
  const released = (event: Event) => {
    if (!event.isTrusted || !press || press.landed || !pathOf(event).includes(press.node) || displaced()) return;
    press.landed = true;
    removals.disconnect();
  };
  // The click paths since the press, read (rarely) when the node pressed left: whether the element acted on was in one.
  let clicks: EventTarget[][] = [];
  early('pointerdown', (event) => {
    pressed(event);
    clicks = [];
    holdBack(event);
  });
  early('mousedown', holdBack);
  for (const type of ['pointerup', 'mouseup']) early(type, (event) => redirected(event) || holdBack(event) || released(event));
  // The click's target is set once it is dispatched: removals after it do not take it away. (A click a
  // label forwards to its control is not redirected: the release was the label's.)
  early('click', (event) => {
    if (holdBack(event)) return;
    released(event);
    if (!event.isTrusted || !press) return;
    clicks.push(pathOf(event));
    displaced();
    removals.disconnect();
  });
  Object.defineProperty(host, '__deckhandPresses', {
    value: {
      reached: (el: Element) => clicks.some((path) => path.includes(el)),
      point: () => press && { x: press.x, y: press.y },
      pressed: () => press?.node,
      aim: (el: Element, hit: Element) => (aim = { el, hit, until: performance.now() + AIM_MS }),
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
      // An aim no press reached: the press went to another document (an iframe the page put over the element) or was never heard.
      if (!press) return aim && performance.now() <= aim.until ? 'intercepted' : undefined;
      if (press.intercepted) return 'intercepted';
      if (press.redirected) return 'redirected';
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

