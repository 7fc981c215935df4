// The one place that maps CDP frame ids (what clients send as frameId) to Playwright frames.
// A process's Page.getFrameTree lists its in-process frames; an out-of-process iframe is missing
// from its parent's tree and has its own CDP session, whose tree starts at that frame.
import type { BrowserContext, CDPSession, Frame, Page } from 'playwright-core';
import { DeckhandError } from '../errors.js';

interface CdpFrameTree {
  frame: { id: string; name?: string; url: string };
  childFrames?: CdpFrameTree[];
}

const sessions = new WeakMap<Page | Frame, Promise<CDPSession>>();

/** The Playwright frame with this CDP id, searching every page of the context. */
export async function findFrameById(context: BrowserContext, frameId: string): Promise<Frame> {
  for (const page of context.pages()) {
    const frame = (await mapFrameIds(context, page)).get(frameId);
    if (frame) return frame;
  }
  throw new DeckhandError('frame_not_found', `No frame with id "${frameId}" in this session`);
}

/** The CDP id of a page's main frame (stable for the life of the tab). */
export async function mainFrameIdOf(context: BrowserContext, page: Page): Promise<string> {
  const tree = await frameTreeOf(context, page);
  return tree.frame.id;
}

/** The CDP id of any frame of the page. */
export async function frameIdOf(context: BrowserContext, frame: Frame): Promise<string | undefined> {
  const ids = await mapFrameIds(context, frame.page());
  for (const [id, candidate] of ids) if (candidate === frame) return id;
  return undefined;
}

async function mapFrameIds(context: BrowserContext, page: Page): Promise<Map<string, Frame>> {
  const ids = new Map<string, Frame>();
  const pending: Array<[Frame, CdpFrameTree]> = [[page.mainFrame(), await frameTreeOf(context, page)]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [frame, tree] = next;
    ids.set(tree.frame.id, frame);
    const unmatched = [...(tree.childFrames ?? [])];
    for (const child of frame.childFrames()) {
      const index = unmatched.findIndex((node) => node.frame.url === child.url() && (node.frame.name ?? '') === child.name());
      if (index >= 0) {
        pending.push([child, unmatched.splice(index, 1)[0]!]);
        continue;
      }
      const oopifTree = await frameTreeOf(context, child).catch(() => undefined);
      if (oopifTree) pending.push([child, oopifTree]);
    }
  }
  return ids;
}

async function frameTreeOf(context: BrowserContext, target: Page | Frame): Promise<CdpFrameTree> {
  let session = sessions.get(target);
  if (!session) {
    session = context.newCDPSession(target);
    sessions.set(target, session);
    session.catch(() => sessions.delete(target));
  }
  try {
    const { frameTree } = (await (await session).send('Page.getFrameTree')) as { frameTree: CdpFrameTree };
    return frameTree;
  } catch (error) {
    // The session died with its target (or a frame swapped processes): start fresh next time.
    sessions.delete(target);
    throw error;
  }
}
