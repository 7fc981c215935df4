// observe's backendNodeIds: each names the very element its selector names (read through the session's
// CDP relay), whether the walk carried it (a page without frames) or it was looked up afterwards (frames).
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectOk, useContract } from '../support/contract';

const ctx = useContract();

type Observed = Array<{ selector: string; description: string; backendNodeId?: number }>;

async function observe(id: string): Promise<Observed> {
  const reply = await ctx.api.call('observe', { id, body: {}, headers: { 'x-stream-response': 'false' } });
  expectOk(reply);
  return reply.body.data.result as Observed;
}

/** For each action, whether its backendNodeId is the node its (plain, frame-free) XPath selector finds in the page. */
async function sameNodes(id: string, actions: Observed): Promise<boolean[]> {
  const record = await ctx.api.call('getBrowserSession', { id });
  const browser = await chromium.connectOverCDP(record.body.connectUrl);
  try {
    const page = browser.contexts()[0]!.pages()[0]!;
    const cdp = await page.context().newCDPSession(page);
    return await Promise.all(
      actions.map(async ({ selector, backendNodeId }) => {
        const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId })) as { object: { objectId: string } };
        const { result } = await cdp.send('Runtime.callFunctionOn', {
          objectId: object.objectId,
          functionDeclaration: 'function (xpath) { return document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue === this; }',
          arguments: [{ value: selector.replace(/^xpath=/, '') }],
          returnByValue: true,
        });
        return result.value as boolean;
      }),
    );
  } finally {
    await browser.close();
  }
}

describe('observe with no instruction: backend node ids', () => {
  it('the first 25 actions carry the ids of their own elements, headings skipped in between', async () => {
    const id = await ctx.sessionOn('observe-many.html');
    const all = await observe(id);
    expect(all.length).toBeGreaterThan(30);
    const first = all.slice(0, 25);
    expect(first.every((a) => typeof a.backendNodeId === 'number')).toBe(true);
    expect(all.slice(25).some((a) => a.backendNodeId !== undefined)).toBe(false);
    expect(await sameNodes(id, first)).toEqual(first.map(() => true));
  });

  it('on a page with a child frame, the ids looked up after the walk name the elements too', async () => {
    const id = await ctx.sessionOn('observe-frame.html');
    const all = await observe(id);
    expect(all.some((a) => /iframe\[1\]\//.test(a.selector))).toBe(true);
    const inMainDocument = all.filter((a) => !/iframe\[1\]\//.test(a.selector));
    expect(inMainDocument.map((a) => a.description)).toEqual([expect.stringMatching(/Save/), expect.stringMatching(/Help/), expect.stringMatching(/iframe/), expect.stringMatching(/Note/)]);
    expect(inMainDocument.every((a) => typeof a.backendNodeId === 'number')).toBe(true);
    expect(await sameNodes(id, inMainDocument)).toEqual(inMainDocument.map(() => true));
  });
});
