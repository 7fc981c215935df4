// The one place that maps CDP frame ids (what clients send as frameId) to Playwright frames.
// A process's Page.getFrameTree lists its in-process frames; an out-of-process iframe is missing
// from its parent's tree and has its own CDP session, whose tree starts at that frame.
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { DeckhandError } from '../errors.js';
import { readFrame } from './frame-read.js';

interface CdpFrameTree {
  frame: { id: string; name?: string; url: string };
  childFrames?: CdpFrameTree[];
}

/** The Playwright frame with this CDP id, searching every page of the context. */
export async function findFrameById(context: BrowserContext, frameId: string): Promise<Frame> {
  for (const page of context.pages()) {
    const frame = (await mapFrameIds(page)).get(frameId);
    if (frame) return frame;
  }
  throw new DeckhandError('frame_not_found', `No frame with id "${frameId}" in this session`);
}

/** The CDP id of any frame of the page. */
export async function frameIdOf(frame: Frame): Promise<string | undefined> {
  const ids = await mapFrameIds(frame.page());
  for (const [id, candidate] of ids) if (candidate === frame) return id;
  return undefined;
}

async function mapFrameIds(page: Page): Promise<Map<string, Frame>> {
  const ids = new Map<string, Frame>();
  const pending: Array<[Frame, CdpFrameTree]> = [[page.mainFrame(), await frameTreeOf(page)]];
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
      // An out-of-process frame answers from its own process, which the page may keep busy forever.
      const oopifTree = await readFrame(child, () => frameTreeOf(child)).catch(() => null);
      if (oopifTree) pending.push([child, oopifTree]);
    }
  }
  return ids;
}

async function frameTreeOf(target: Page | Frame): Promise<CdpFrameTree> {
  const { frameTree } = await sendCdp<{ frameTree: CdpFrameTree }>(target, 'Page.getFrameTree');
  return frameTree;
}
