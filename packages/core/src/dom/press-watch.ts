// Whether an action's press ended on the element pressed, seen from inside the page: installed with the
// page watch (activity-watch.ts) and restarted with it, so the act learns it in its first look, with no
// round trip of its own. Playwright answers once it has sent the input; a page that replaces or moves the
// element as it is pressed takes the click away from it (docs/decisions.md, "A click that never landed").

/**
 * How the last trusted press since the watch's restart ended: `landed` (its release or click reached the
 * node pressed), `kept` (neither did, but that node still stands under the press point: a page acting on
 * the press, or stopping the click before the watch sees it), `detached` or `moved` (the node pressed
 * left the press point before its release). Absent: no trusted press was seen.
 */
export type PressOutcome = 'landed' | 'kept' | 'detached' | 'moved';

export interface PressWatch {
  restart(): void;
  outcome(): PressOutcome | undefined;
}

/**
 * Runs in the page (passed to inPage as a module): follows trusted presses with capture listeners on the
 * window, added through the page's original addEventListener (`listen`).
 */
export function watchPresses(listen: typeof EventTarget.prototype.addEventListener): PressWatch {
  type Press = { node: EventTarget; x: number; y: number; landed: boolean };
  let press: Press | undefined;
  const host = window as unknown as Record<string, unknown>;
  const pressed = (event: Event) => {
    if (!event.isTrusted) return;
    const { clientX: x, clientY: y } = event as PointerEvent;
    press = { node: event.composedPath()[0] ?? event.target!, x, y, landed: false };
  };
  // Each release or click of the press that reaches the node pressed: what the element was given (a
  // node the page removes on its release still had the release).
  const released = (event: Event) => {
    if (event.isTrusted && press && event.composedPath().includes(press.node)) press.landed = true;
  };
  // The click paths since the press, read (rarely) when the node pressed left: whether the element acted on was in one.
  let clicks: EventTarget[][] = [];
  listen.call(window, 'pointerdown', (event) => {
    pressed(event);
    clicks = [];
  }, { capture: true });
  for (const type of ['pointerup', 'mouseup']) listen.call(window, type, released, { capture: true });
  listen.call(window, 'click', (event) => {
    released(event);
    if (event.isTrusted && press) clicks.push(event.composedPath());
  }, { capture: true });
  Object.defineProperty(host, '__deckhandPresses', {
    value: {
      reached: (el: Element) => clicks.some((path) => path.includes(el)),
      point: () => press && { x: press.x, y: press.y },
    },
    enumerable: false,
    configurable: true,
  });
  return {
    restart() {
      press = undefined;
      clicks = [];
    },
    outcome() {
      if (!press) return undefined;
      if (press.landed) return 'landed';
      const node = press.node as Element;
      if (!node.isConnected) return 'detached';
      const { x, y } = press;
      const under = [...node.getClientRects()].some((r) => x >= r.left - 1 && x <= r.right + 1 && y >= r.top - 1 && y <= r.bottom + 1);
      return under ? 'kept' : 'moved';
    },
  };
}
