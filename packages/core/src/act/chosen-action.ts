// Turns a model's answer (snapshot element ids) into a replayable Action: deep-XPath selectors from
// the page's main frame, the page root for page-level actions, %name% placeholders kept as they are.
import type { Frame, Page } from 'playwright-core';
import { DeckhandError } from '../errors.js';
import { PAGE_ELEMENT_ID, type ChosenAction } from '../inference/index.js';
import { framePrefix, resolveBackendNodeId, resolveBackendNodeIds } from '../selectors/index.js';
import type { PageSnapshot } from '../snapshot/index.js';
import type { Action } from '../types.js';

export interface ActionContext {
  snapshot: PageSnapshot;
  /** The frame the snapshot started at: page-level actions apply to its document. */
  frame: Frame;
  page: Page;
}

/** `withBackendNodeId`: look the element's CDP id up (one CDP round trip per action). */
export async function toAction(chosen: ChosenAction, at: ActionContext, withBackendNodeId = true): Promise<Action> {
  if (chosen.elementId === PAGE_ELEMENT_ID) {
    return { selector: `xpath=${await framePrefix(at.frame)}/html`, description: chosen.description, method: chosen.method, arguments: chosen.arguments };
  }
  const element = elementOf(at.snapshot, chosen.elementId);
  const args = chosen.method === 'dragAndDrop' ? [`xpath=${elementOf(at.snapshot, chosen.arguments[0] ?? '').xpath}`] : chosen.arguments;
  const backendNodeId = withBackendNodeId ? await resolveBackendNodeId(at.page, element.xpath).catch(() => undefined) : undefined;
  return {
    selector: `xpath=${element.xpath}`,
    description: chosen.description,
    method: chosen.method,
    arguments: args,
    ...(backendNodeId !== undefined && { backendNodeId }),
  };
}

/**
 * Several answers at once (observe's list): the first `withIds` element actions get their backend node ids,
 * from the snapshot where it has them, the others looked up together.
 */
export async function toActions(chosen: ChosenAction[], at: ActionContext, withIds: number): Promise<Action[]> {
  const actions = await Promise.all(chosen.map((c) => toAction(c, at, false)));
  const known = (i: number) => at.snapshot.elements.get(chosen[i]!.elementId)?.backendNodeId;
  const looked = chosen.map((_, i) => i).filter((i) => i < withIds && chosen[i]!.elementId !== PAGE_ELEMENT_ID && known(i) === undefined);
  const ids = await resolveBackendNodeIds(at.page, looked.map((i) => elementOf(at.snapshot, chosen[i]!.elementId).xpath)).catch(() => []);
  return actions.map((action, i) => {
    const backendNodeId = i < withIds ? (known(i) ?? ids[looked.indexOf(i)]) : undefined;
    return backendNodeId === undefined ? action : { ...action, backendNodeId };
  });
}

function elementOf(snapshot: PageSnapshot, id: string) {
  const element = snapshot.elements.get(id);
  // Inference checks ids against the snapshot, so this is a model layer fault, not the caller's.
  if (!element) throw new DeckhandError('model_error', `the model named element "${id}", which is not on the page`);
  return element;
}
