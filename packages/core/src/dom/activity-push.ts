// The page watch's status, pushed by the page right after a pointer action's input has had its effects
// (a binding: Runtime.bindingCalled on the page's shared CDP session), so the act's first look needs no
// round trip to a renderer that is busy drawing the frame the input caused (docs/decisions.md, "Act round trips").
import type { CDPSession, Page } from 'playwright-core';
import { cdpSessionOf } from '../browser/cdp/cdp-session.js';
import type { PressOutcome } from './press-watch.js';

/** The page function the watch pushes through; a document has it once its watch is installed. */
export const PUSH_BINDING = '__deckhandActivityPush';

/** What a watch reports, read or pushed: its status, and the restart it counts from (a time stamp, growing across documents). */
export interface WatchStatus {
  generation: number;
  pending: number;
  quietMs: number;
  press?: PressOutcome;
}

const PRESS_OUTCOMES: PressOutcome[] = ['landed', 'displaced', 'kept', 'covered', 'detached', 'moved'];

type Listener = (pushed: WatchStatus) => void;
const listeners = new WeakMap<Page, Set<Listener>>();
const followed = new WeakSet<CDPSession>();

/**
 * Gives the page's current document the binding (a binding added without Runtime.enable does not
 * outlive its document) and follows the session's pushes, once per session.
 */
export async function allowPushes(page: Page): Promise<void> {
  const session = await cdpSessionOf(page);
  if (!followed.has(session)) {
    followed.add(session);
    session.on('Runtime.bindingCalled', ({ name, payload }) => {
      if (name !== PUSH_BINDING) return;
      const pushed = parsePush(payload);
      if (pushed) for (const listener of listeners.get(page) ?? []) listener(pushed);
    });
  }
  await session.send('Runtime.addBinding', { name: PUSH_BINDING });
}

/** Calls `listener` with every push of the page's main frame until the returned function is called. */
export function onPush(page: Page, listener: Listener): () => void {
  let set = listeners.get(page);
  if (!set) listeners.set(page, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** The page writes the payload, so it is read with care: anything else, or a child frame's push, is none. */
function parsePush(payload: string): WatchStatus | undefined {
  if (payload.length > 200) return undefined;
  try {
    const { generation, pending, quietMs, top, press } = JSON.parse(payload) as Record<string, unknown>;
    if (top !== true || typeof generation !== 'number' || typeof pending !== 'number' || typeof quietMs !== 'number') return undefined;
    return { generation, pending, quietMs, press: PRESS_OUTCOMES.find((known) => known === press) };
  } catch {
    return undefined;
  }
}
