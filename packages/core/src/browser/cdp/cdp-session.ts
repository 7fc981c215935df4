// One long-lived CDP session per page (or out-of-process frame), opened on first use and reused, so
// frequent small queries (frame trees, target lists) cost one round trip, not three.
import type { CDPSession, Frame, Page } from 'playwright-core';

const sessions = new WeakMap<Page | Frame, Promise<CDPSession>>();

/** Rejects for a frame that runs in its parent's process (it has no session of its own). */
function sessionOf(target: Page | Frame): Promise<CDPSession> {
  let session = sessions.get(target);
  if (!session) {
    const page = 'mainFrame' in target ? target : target.page();
    session = page.context().newCDPSession(target);
    sessions.set(target, session);
    const opened = session;
    opened.catch(() => forget(target, opened));
  }
  return session;
}

/** Whether the frame (or page) has a CDP session of its own: pages and out-of-process frames do. */
export function hasOwnCdpSession(target: Page | Frame): Promise<boolean> {
  return sessionOf(target).then(
    () => true,
    () => false,
  );
}

/** The target's shared session itself, to follow its events; rejects for a frame without one. */
export function cdpSessionOf(target: Page | Frame): Promise<CDPSession> {
  return sessionOf(target);
}

/** Sends one command on the target's shared session; a failure drops the session so the next call starts fresh. */
export async function sendCdp<T>(target: Page | Frame, method: string, params?: object): Promise<T> {
  const session = sessionOf(target);
  try {
    return (await (await session).send(method as never, params as never)) as T;
  } catch (error) {
    // The session died with its target (or the frame swapped processes).
    forget(target, session);
    throw error;
  }
}

/** Drops a failed session, unless a newer one has taken its place already. */
function forget(target: Page | Frame, session: Promise<CDPSession>): void {
  if (sessions.get(target) === session) sessions.delete(target);
}
