// Page-level tools that need no model: open a URL, go back or forward, reload, scroll, press or type
// keys, wait, and take a screenshot. Keys may carry %variable% placeholders, replaced only as they are typed.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { substituteVariables } from '../act/variables.js';
import { navigate } from '../operations/navigate.js';
import { takeScreenshot } from '../pictures/screenshot.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { pageSentence, pageStateOf, type PageState } from './page-state.js';
import { defineTool } from './tool.js';
import type { ToolOptions } from './tool-options.js';

/** A wait longer than this is a plan, not a pause: the model should look at the page again instead. */
const MAX_WAIT_MS = 10_000;
/** Going back, forward or reloading waits for the page at most this long (and never past the call's deadline). */
const HISTORY_TIMEOUT_MS = 15_000;

export interface Screenshot {
  /** Base64 PNG of the viewport. */
  image: { mediaType: 'image/png'; data: string };
}

/** Where the page is now, as the history tools answer it; `moved: false` when there was no page to go to. */
type HistoryResult = PageState & { moved: boolean };

async function historyStep(scope: OperationScope, step: (timeout: number) => Promise<unknown>): Promise<HistoryResult> {
  const response = await scope.deadline.race(step(scope.deadline.remaining(HISTORY_TIMEOUT_MS)));
  return { moved: response !== null, ...(await pageStateOf(scope)) };
}

const keysDone = (result: { pressed?: string; typed?: string }) => (result.pressed !== undefined ? `Pressed ${result.pressed}` : `Typed ${result.typed}`);

const historyView = (what: string) => (result: HistoryResult) => ({
  text: result.moved ? `${what}. ${pageSentence(result)}` : `There was no page to go to. ${pageSentence(result)}`,
});

export function browserTools(options: ToolOptions) {
  const navigateTool = defineTool({
    name: 'navigate',
    aliases: ['goto'],
    description: 'Open a URL in the browser page.',
    input: z.object({ url: z.string().min(1).describe('The address to open, e.g. https://example.com') }),
    readOnly: false,
    openWorld: true,
    capability: 'core',
    record: 'input',
    handle: async ({ url }, scope) => {
      const result = await navigate(scope, { url, frameId: options.frameId });
      return { ...(await pageStateOf(scope)), ...(result && { status: result.response.status }) };
    },
    view: (result) => ({ text: `Opened ${result.url}${result.status === undefined ? ' (no document response)' : ` (HTTP ${result.status})`}. ${pageSentence(result)}` }),
  });

  const backTool = defineTool({
    name: 'back',
    aliases: ['navback'],
    description: 'Go back to the previous page in the history.',
    input: z.object({}),
    readOnly: false,
    capability: 'page',
    record: 'input',
    handle: (_input, scope) => historyStep(scope, (timeout) => scope.page.goBack({ timeout })),
    view: historyView('Went back'),
  });

  const forwardTool = defineTool({
    name: 'forward',
    description: 'Go forward to the next page in the history.',
    input: z.object({}),
    readOnly: false,
    capability: 'page',
    record: 'input',
    handle: (_input, scope) => historyStep(scope, (timeout) => scope.page.goForward({ timeout })),
    view: historyView('Went forward'),
  });

  const reloadTool = defineTool({
    name: 'reload',
    description: 'Reload the current page.',
    input: z.object({}),
    readOnly: false,
    capability: 'page',
    record: 'input',
    handle: (_input, scope) => historyStep(scope, (timeout) => scope.page.reload({ timeout })),
    view: historyView('Reloaded'),
  });

  const scrollTool = defineTool({
    name: 'scroll',
    description: 'Scroll the page up or down by a number of pixels (default: one screen).',
    input: z.object({
      direction: z.enum(['up', 'down']),
      pixels: z.number().int().positive().max(100_000).optional().describe('How far; one screen when absent'),
    }),
    readOnly: false,
    capability: 'page',
    record: 'input',
    handle: async ({ direction, pixels }, scope) => {
      const page = scope.page;
      const distance = pixels ?? page.viewportSize()?.height ?? 600;
      const top = await scope.deadline.race(
        page.evaluate((dy) => {
          window.scrollBy(0, dy);
          return window.scrollY;
        }, direction === 'down' ? distance : -distance),
      );
      return { scrollY: top };
    },
    view: (result) => ({ text: `Scrolled; the page's top is now ${result.scrollY} px down.` }),
  });

  const keysTool = defineTool({
    name: 'keys',
    description: 'Press a key or shortcut (e.g. "Enter", "Control+A") or type text into the focused element; text may hold %variable% placeholders.',
    input: z.object({
      method: z.enum(['press', 'type']),
      value: z.string().min(1).describe('A key for press ("Enter", "Tab", "Control+A"), text for type'),
    }),
    readOnly: false,
    capability: 'page',
    record: 'input',
    handle: async ({ method, value }, scope) => {
      const keyboard = scope.page.keyboard;
      const text = substituteVariables(value, options.variables);
      await scope.deadline.race(method === 'press' ? keyboard.press(text) : keyboard.type(text));
      // The placeholder, never the value, goes back to the caller.
      const state = await pageStateOf(scope);
      return method === 'press' ? { pressed: value, ...state } : { typed: value, ...state };
    },
    view: (result) => ({ text: `${keysDone(result)}. ${pageSentence(result)}` }),
  });

  const waitTool = defineTool({
    name: 'wait',
    description: `Wait a moment for the page to change (at most ${MAX_WAIT_MS} ms).`,
    input: z.object({ ms: z.number().int().positive().max(MAX_WAIT_MS).describe('Milliseconds to wait') }),
    readOnly: true,
    capability: 'page',
    // Read-only, yet a step: a replay that skipped it would run on a page that had no time to change.
    record: 'input',
    handle: async ({ ms }, scope) => {
      // The whole wait or none: a wait the deadline cuts short is the deadline's failure, not a success.
      await sleep(ms, undefined, { signal: scope.signal });
      return { waitedMs: ms };
    },
    view: (result) => ({ text: `Waited ${result.waitedMs} ms.` }),
  });

  const screenshotTool = defineTool({
    name: 'screenshot',
    description: 'Take a screenshot of the visible part of the page.',
    input: z.object({}),
    readOnly: true,
    capability: 'read',
    handle: async (_input, scope): Promise<Screenshot> => {
      const png = await takeScreenshot(scope, { type: 'png' });
      return { image: { mediaType: 'image/png', data: png.bytes.toString('base64') } };
    },
    view: (result) => ({ text: 'A screenshot of the visible part of the page.', image: result.image }),
  });

  return [navigateTool, backTool, forwardTool, reloadTool, scrollTool, keysTool, waitTool, screenshotTool];
}
