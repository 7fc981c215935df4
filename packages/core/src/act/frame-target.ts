// The frame an act works in, resolved once from the request's frameId and carried down the act: its
// id (the act cache keys on it), the Playwright frame, and where an action's selector starts in it.
import type { Frame } from 'playwright-core';
import type { OperationScope } from '../scope/operation-scope.js';
import { framePrefix } from '../selectors/index.js';
import type { Action, FrameId } from '../types.js';

export interface FrameTarget {
  /** The request's frameId; absent for the active page's main frame. */
  readonly id: FrameId | undefined;
  readonly frame: Frame;
  /** The frame's deep-XPath prefix from the main frame, read on first use and kept. */
  prefix(): Promise<string>;
}

export async function resolveFrameTarget(scope: OperationScope, frameId: FrameId | undefined): Promise<FrameTarget> {
  const frame = await scope.frame(frameId);
  let prefix: Promise<string> | undefined;
  return { id: frameId ?? undefined, frame, prefix: () => (prefix ??= framePrefix(frame)) };
}

/** Where an action acts from: the frame its selector starts at, and the selector as seen from there. */
export interface ActionStart {
  frame: Frame;
  selector?: string;
}

/**
 * Where the selector of an action chosen from a snapshot starts. Snapshots write selectors from the
 * main frame; one inside the target frame's document starts at the target frame (not walked down to
 * again from the main frame), any other at the main frame.
 */
export async function startOf(at: FrameTarget, action: Action): Promise<ActionStart> {
  const main = at.frame.page().mainFrame();
  if (at.frame === main || !action.selector) return { frame: main };
  const prefix = `xpath=${await at.prefix()}`;
  return action.selector.startsWith(`${prefix}/html`) ? { frame: at.frame, selector: `xpath=${action.selector.slice(prefix.length)}` } : { frame: main };
}
