// The walk of a page's main frame when it has no child frames and no scope: one Runtime.evaluate on the
// page's own CDP session, not Playwright's evaluate. That is one hop less per snapshot, and its answer
// can carry what Playwright's cannot: the backend node ids of the elements an observe lists, serialized
// by CDP with the walk (docs/decisions.md, "Observe cost").
import type { Page } from 'playwright-core';
import { sendCdp } from '../browser/cdp/cdp-session.js';
import { isDocumentReplaced } from '../dom/read-across-navigation.js';
import { PageScriptError } from '../errors.js';
import type { WalkArgs, WalkResult } from './page-walker.js';

interface Evaluated {
  result: { value?: unknown; objectId?: string; deepSerializedValue?: DeepValue };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

/** CDP's deep serialization of a value: a node's carries its backend id. */
interface DeepValue {
  type: string;
  value?: unknown;
}

/** Names the remote objects of one walk that hands elements back, so they are released together afterwards. */
let walks = 0;

/**
 * `script` is the walk's in-page function (frame-tree.ts); `args` plain JSON (no element handles). With
 * args.elementsOf, the lines of result.idLines get their backendNodeId.
 */
export async function walkMainFrame(page: Page, script: (args: WalkArgs) => unknown, args: WalkArgs): Promise<WalkResult> {
  const expression = `(${String(script)})(${JSON.stringify(args)})`;
  if (!args.elementsOf) {
    const { result, exceptionDetails } = await sendCdp<Evaluated>(page, 'Runtime.evaluate', { expression, returnByValue: true });
    if (exceptionDetails) throw walkError(exceptionDetails);
    return JSON.parse(result.value as string) as WalkResult;
  }
  const objectGroup = `deckhand-walk-${++walks}`;
  try {
    const { result, exceptionDetails } = await sendCdp<Evaluated>(page, 'Runtime.evaluate', {
      expression,
      objectGroup,
      // The array's items: the JSON (a string) and the elements, each without its children.
      serializationOptions: { serialization: 'deep', maxDepth: 1 },
    });
    if (exceptionDetails) throw walkError(exceptionDetails);
    // A browser without deep serialization (older than Chromium 117) walks again without the elements.
    if (!result.deepSerializedValue) return await walkMainFrame(page, script, { ...args, elementsOf: undefined });
    const [json, ...elements] = (result.deepSerializedValue?.value ?? []) as DeepValue[];
    const walk = JSON.parse(json?.value as string) as WalkResult;
    for (const [k, line] of (walk.idLines ?? []).entries()) {
      const id = elements[k]?.type === 'node' ? (elements[k]!.value as { backendNodeId?: number }).backendNodeId : undefined;
      if (id !== undefined) walk.nodes[line]!.backendNodeId = id;
    }
    return walk;
  } finally {
    // Nothing waits for the page to let the objects go.
    void sendCdp(page, 'Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
  }
}

/**
 * An exception in the page: a navigation's, which readAcrossNavigation knows, in its own words; any other
 * is the page's own script breaking the walk (a DOM function it replaced), whose words clients never read.
 */
function walkError(details: NonNullable<Evaluated['exceptionDetails']>): Error {
  const error = new Error(details.exception?.description ?? details.text ?? 'the page walk failed');
  return isDocumentReplaced(error) ? error : new PageScriptError(error.message);
}
