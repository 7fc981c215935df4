// The selector language (docs/selectors.md) against real Chromium: every step form the writer emits
// is read back to the same element by both readers (a Playwright handle, a CDP backend node id),
// through same- and cross-origin iframes and open and closed shadow roots; a step means the same in
// a document and in a shadow root; malformed paths are clear errors.
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHandle } from '../src/browser/provider/browser-handle.js';
import { launchLocalBrowser } from '../src/browser/provider/launch-local.js';
import { DEFAULT_CORE_CONFIG } from '../src/config.js';
import { resolveBackendNodeId, resolveBackendNodeIds } from '../src/selectors/backend-node.js';
import { parseDeepXPath } from '../src/selectors/deep-xpath.js';
import { framePrefix } from '../src/selectors/frame-path.js';
import { inPage } from '../src/selectors/in-page.js';
import { resolveTarget } from '../src/selectors/resolve-target.js';
import { startFixtureServer, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
let browser: BrowserHandle;
let page: Page;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  browser = await launchLocalBrowser({ headless: true }, { width: 800, height: 600 }, DEFAULT_CORE_CONFIG);
  page = browser.context.pages()[0]!;
  await page.goto(fixtures.url('/selectors.html'));
  // The main page, its two iframes and the one inside the closed shadow root.
  expect(page.frames()).toHaveLength(4);
});
afterAll(async () => {
  await browser?.close();
  await fixtures?.close();
});

/** Every element marked data-target in the frame, through open and closed shadow roots, with the writer's path of it. */
const markedScript = inPage((_: null, lib) => {
  const marked: Array<{ name: string; path: string }> = [];
  const visit = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const name = el.getAttribute('data-target');
      if (name) marked.push({ name, path: lib.elementPath(el) });
      const shadow = lib.shadowRootOf(el);
      if (shadow) visit(shadow);
    }
  };
  visit(document);
  return marked;
});

interface Marked {
  frame: Frame;
  name: string;
  /** The deep XPath from the main frame, as the snapshot writes it. */
  xpath: string;
}

async function markedElements(): Promise<Marked[]> {
  const all: Marked[] = [];
  for (const frame of page.frames()) {
    const [prefix, marked] = await Promise.all([framePrefix(frame), frame.evaluate(markedScript, null)]);
    for (const { name, path } of marked) all.push({ frame, name, xpath: prefix + path });
  }
  return all;
}

interface CdpNode {
  nodeType: number;
  backendNodeId: number;
  documentURL?: string;
  attributes?: string[];
  children?: CdpNode[];
  shadowRoots?: CdpNode[];
  contentDocument?: CdpNode;
}

/** Backend node ids of the marked elements from CDP's own DOM tree (an independent route), keyed `<document URL> <name>`. */
async function markedBackendNodeIds(): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const visit = (node: CdpNode, url: string) => {
    const attributes = node.attributes ?? [];
    const at = attributes.findIndex((value, i) => i % 2 === 0 && value === 'data-target');
    if (at >= 0) ids.set(`${url} ${attributes[at + 1]}`, node.backendNodeId);
    for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? []), ...(node.contentDocument ? [node.contentDocument] : [])]) {
      visit(child, child.nodeType === 9 ? child.documentURL! : url);
    }
  };
  for (const frame of page.frames()) {
    // Pages and out-of-process frames have sessions of their own; an in-process frame is in its parent's tree.
    const session = await page.context().newCDPSession(frame === page.mainFrame() ? page : frame).catch(() => null);
    if (!session) continue;
    const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: CdpNode };
    visit(root, root.documentURL!);
    await session.detach();
  }
  return ids;
}

/** Reads the selector with both readers: the marked element it reaches (its frame's URL and name), and whether CDP reached the same node. */
async function readBack(selector: string, expected: Map<string, number>) {
  const found = await resolveTarget(page.mainFrame(), selector, 0);
  const backendNodeId = await resolveBackendNodeId(page, selector);
  if (!found.found) return { handle: null, backendNodeId };
  const { frame, element } = found.target;
  const name = await element.getAttribute('data-target');
  await element.dispose();
  return { handle: { url: frame.url(), name }, backendNodeId, sameNode: backendNodeId === expected.get(`${frame.url()} ${name}`) };
}

describe('the writer and the readers', () => {
  it('writes every step form, and both readers read each path back to the element it was written from', async () => {
    const marked = await markedElements();
    const cross = `/html/body[1]/iframe[2]/html/body[1]`;
    const same = `/html/body[1]/iframe[1]/html/body[1]`;
    const inShadow = `/html/body[1]/closed-box[1]/#shadow-root/iframe[1]/html/body[1]`;
    const frameButton = `frame-box[1]/#shadow-root/*[name()='svg'][1]/*[name()='foreignObject'][1]/button[1]`;
    expect(marked.map((m) => `${m.name} ${m.xpath}`).sort()).toEqual(
      [
        'first-p /html/body[1]/p[1]',
        'second-p /html/body[1]/p[2]',
        'second-span /html/body[1]/div[1]/span[2]',
        "svg-camel /html/body[1]/*[name()='svg'][1]/*[name()='defs'][1]/*[name()='linearGradient'][1]",
        "svg-circle /html/body[1]/*[name()='svg'][1]/*[name()='circle'][2]",
        "html-in-svg /html/body[1]/*[name()='svg'][1]/*[name()='foreignObject'][1]/button[1]",
        "mathml /html/body[1]/*[name()='math'][1]/*[name()='mi'][2]",
        'open-b /html/body[1]/open-box[1]/#shadow-root/div[1]/b[2]',
        "open-svg-g /html/body[1]/open-box[1]/#shadow-root/*[name()='svg'][1]/*[name()='g'][2]",
        "open-foreign-span /html/body[1]/open-box[1]/#shadow-root/*[name()='svg'][1]/*[name()='foreignObject'][1]/span[1]",
        'nested-closed-i /html/body[1]/open-box[1]/#shadow-root/inner-box[1]/#shadow-root/i[2]',
        'closed-p /html/body[1]/closed-box[1]/#shadow-root/p[1]',
        `frame-p ${same}/p[1]`,
        `frame-shadow-button ${same}/${frameButton}`,
        `frame-p ${cross}/p[1]`,
        `frame-shadow-button ${cross}/${frameButton}`,
        `frame-p ${inShadow}/p[1]`,
        `frame-shadow-button ${inShadow}/${frameButton}`,
      ].sort(),
    );
    // The cross-origin frame really runs out of process: the CDP reader starts from its own session there.
    const crossFrame = page.frames().find((f) => f.url().startsWith(fixtures.crossOrigin))!;
    await (await page.context().newCDPSession(crossFrame)).detach();

    const expected = await markedBackendNodeIds();
    expect(expected.size).toBe(marked.length);
    for (const m of marked) {
      const read = await readBack(m.xpath, expected);
      expect(read.handle, m.xpath).toEqual({ url: m.frame.url(), name: m.name });
      expect(read.sameNode, m.xpath).toBe(true);
    }
  });

  it('reads many paths at once (observe\'s list) to the same nodes, in order, with none for a path that names nothing', async () => {
    const marked = await markedElements();
    const expected = await markedBackendNodeIds();
    // Main-frame paths are read together in one evaluation; frame-crossing ones one by one; order is kept.
    const paths = [...marked.map((m) => m.xpath), '/html/body[1]/p[9]', ...marked.map((m) => m.xpath).reverse()];
    const ids = await resolveBackendNodeIds(page, paths);
    const want = marked.map((m) => expected.get(`${m.frame.url()} ${m.name}`));
    expect(want.every((id) => typeof id === 'number')).toBe(true);
    expect(ids).toEqual([...want, undefined, ...[...want].reverse()]);
  });

  it('reads a step by one rule in a document and in a shadow root: letter case, predicates, name() steps', async () => {
    const expected = await markedBackendNodeIds();
    const cases: Array<[selector: string, name: string | null]> = [
      // HTML names match in any letter case, in a document (XPath's rule) and in a shadow root alike.
      ['/HTML/BODY/P[2]', 'second-p'],
      ['/html/body/OPEN-BOX/#shadow-root/DIV/B[2]', 'open-b'],
      // A step without an index is its first match.
      ["/html/body/*[name()='svg']/*[name()='foreignObject']/button", 'html-in-svg'],
      ["/html/body/open-box/#shadow-root/*[name()='svg']/*[name()='foreignObject']/span", 'open-foreign-span'],
      ["/html/body/open-box/#shadow-root/*[name()=\"svg\"]/*[name()='g'][2]", 'open-svg-g'],
      // Any XPath in a document: the xpath= prefix, predicates, descendants, parenthesised expressions.
      ["xpath=//p[@data-target='second-p']", 'second-p'],
      ['(//p)[2]', 'second-p'],
      ['(//open-box)[1]/#shadow-root/div/b[2]', 'open-b'],
      ['//closed-box/#shadow-root/p', 'closed-p'],
      ["//iframe[contains(@src, 'localhost')]/html/body/frame-box/#shadow-root/*[name()='svg']/*[name()='foreignObject']/button", 'frame-shadow-button'],
      // SVG and MathML elements are reached by name() only, and name() is exact.
      ['/html/body/svg', null],
      ['/html/body/open-box/#shadow-root/svg', null],
      ["/html/body/*[name()='SVG']", null],
      ["/html/body/open-box/#shadow-root/*[name()='SVG']", null],
      ["/html/body/*[name()='svg']/*[name()='foreignobject']", null],
      ["/html/body/open-box/#shadow-root/*[name()='svg']/*[name()='foreignobject']", null],
      // An index past the last match finds nothing.
      ['/html/body/open-box/#shadow-root/div/b[3]', null],
    ];
    for (const [selector, name] of cases) {
      const read = await readBack(selector, expected);
      expect(read.handle?.name ?? null, selector).toBe(name);
      if (name) expect(read.sameNode, selector).toBe(true);
      else expect(read.backendNodeId, selector).toBeUndefined();
    }
  });

  it('answers a malformed path at once with what is wrong, and a path the browser rejects as an invalid selector', async () => {
    // A long timeout: a syntax error is not worth waiting for.
    const unclosed = await resolveTarget(page.mainFrame(), '/html/body/open-box/#shadow-root/div[@id="a"]', 60_000);
    expect(unclosed).toEqual({
      found: false,
      reason: `Invalid selector "/html/body/open-box/#shadow-root/div[@id="a"]": step 'div[@id="a"]' is inside a shadow root, where a step is tag, tag[n], *[name()='name'] or *[name()='name'][n]`,
    });
    expect(await resolveTarget(page.mainFrame(), '/html/body/p[@@]', 60_000)).toEqual({ found: false, reason: 'Invalid selector "/html/body/p[@@]"' });
    expect(await resolveBackendNodeId(page, '/html/body/p[')).toBeUndefined();
  });
});

describe('parseDeepXPath', () => {
  it('splits at frames and shadow roots, leaving each frame its XPath', () => {
    expect(parseDeepXPath("xpath=/html/body[1]/x-a[1]/#shadow-root/DIV/*[name()='svg'][2]/iframe[1]/html/body[1]/p[@title='a/b']")).toEqual([
      {
        xpath: '/html/body[1]/x-a[1]',
        shadow: [
          [
            { test: 'tag', name: 'div', index: 1 },
            { test: 'name()', name: 'svg', index: 2 },
            { test: 'tag', name: 'iframe', index: 1 },
          ],
        ],
      },
      { xpath: "/html/body[1]/p[@title='a/b']", shadow: [] },
    ]);
    expect(parseDeepXPath("//IFRAME[@id='f']/HTML/body//p | //q")).toEqual([
      { xpath: "//IFRAME[@id='f']", shadow: [] },
      { xpath: '/HTML/body//p | //q', shadow: [] },
    ]);
    expect(parseDeepXPath('(//a)[2]')).toEqual([{ xpath: '(//a)[2]', shadow: [] }]);
    // `html` alone does not cross a frame: only a frame owner's step followed by `html` does.
    expect(parseDeepXPath('/html/body/div/html')).toEqual([{ xpath: '/html/body/div/html', shadow: [] }]);
  });

  it.each([
    ['', 'the path is empty'],
    ['xpath=', 'the path is empty'],
    ['/html/body/div[1', "'[' is not closed"],
    ["/html/body/p[@title='x]", 'a string is not closed'],
    ['/html/body/p)', "')' closes nothing"],
    ['/#shadow-root/div', '#shadow-root must follow an element'],
    ['/html/body/x-a/#shadow-root/#shadow-root/div', '#shadow-root must follow an element'],
    ['/html/body/x-a/#shadow-root', 'the path ends at #shadow-root, not at an element'],
    ['/html/body/x-a/#shadow-root/', "an empty step ('//' or a trailing '/') is inside a shadow root"],
    ['/html/body/x-a/#shadow-root//div', "an empty step ('//' or a trailing '/') is inside a shadow root"],
    ['/html/body/x-a/#shadow-root/div[last()]', "step 'div[last()]' is inside a shadow root"],
    ['/html/body/x-a/#shadow-root/*', "step '*' is inside a shadow root"],
    ['/html/body/x-a/#shadow-root/..', "step '..' is inside a shadow root"],
  ])('refuses %j: %s', (selector, problem) => {
    expect(() => parseDeepXPath(selector)).toThrow(problem);
  });
});
