// Page-level tools that need no model: go to a URL, go back, scroll, press or type keys, wait, and
// take a screenshot. Keys may carry %variable% placeholders, replaced only as they are typed.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { substituteVariables } from '../actions/variables.js';
import { navigate } from '../operations/navigate.js';
import { defineTool } from './tool.js';
import type { ToolOptions } from './tool-options.js';

/** A wait longer than this is a plan, not a pause: the model should look at the page again instead. */
const MAX_WAIT_MS = 10_000;
/** Navigating back waits for the page at most this long (and never past the call's deadline). */
const BACK_TIMEOUT_MS = 15_000;

export interface Screenshot {
  /** Base64 PNG of the viewport. */
  image: { mediaType: 'image/png'; data: string };
}

export function browserTools(options: ToolOptions) {
  const gotoTool = defineTool({
    name: 'goto',
    description: 'Open a URL in the page.',
    input: z.object({ url: z.string().min(1).describe('The address to open, e.g. https://example.com') }),
    readOnly: false,
    handle: async ({ url }, scope) => {
      await navigate(scope, { url, frameId: options.frameId });
      return { url: scope.page.url() };
    },
  });

  const navbackTool = defineTool({
    name: 'navback',
    description: 'Go back to the previous page in the history.',
    input: z.object({}),
    readOnly: false,
    handle: async (_input, scope) => {
      await scope.deadline.race(scope.page.goBack({ timeout: scope.deadline.remaining(BACK_TIMEOUT_MS) }));
      return { url: scope.page.url() };
    },
  });

  const scrollTool = defineTool({
    name: 'scroll',
    description: 'Scroll the page up or down by a number of pixels (default: one screen).',
    input: z.object({
      direction: z.enum(['up', 'down']),
      pixels: z.number().int().positive().max(100_000).optional().describe('How far; one screen when absent'),
    }),
    readOnly: false,
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
  });

  const keysTool = defineTool({
    name: 'keys',
    description: 'Press a key or shortcut (e.g. "Enter", "Control+A") or type text into the focused element; text may hold %variable% placeholders.',
    input: z.object({
      method: z.enum(['press', 'type']),
      value: z.string().min(1).describe('A key for press ("Enter", "Tab", "Control+A"), text for type'),
    }),
    readOnly: false,
    handle: async ({ method, value }, scope) => {
      const keyboard = scope.page.keyboard;
      const text = substituteVariables(value, options.variables);
      await scope.deadline.race(method === 'press' ? keyboard.press(text) : keyboard.type(text));
      // The placeholder, never the value, goes back to the caller.
      return { [method === 'press' ? 'pressed' : 'typed']: value };
    },
  });

  const waitTool = defineTool({
    name: 'wait',
    description: `Wait a moment for the page to change (at most ${MAX_WAIT_MS} ms).`,
    input: z.object({ ms: z.number().int().positive().max(MAX_WAIT_MS).describe('Milliseconds to wait') }),
    readOnly: true,
    handle: async ({ ms }, scope) => {
      // The whole wait or none: a wait the deadline cuts short is the deadline's failure, not a success.
      await sleep(ms, undefined, { signal: scope.signal });
      return { waitedMs: ms };
    },
  });

  const screenshotTool = defineTool({
    name: 'screenshot',
    description: 'Take a screenshot of the visible part of the page.',
    input: z.object({}),
    readOnly: true,
    handle: async (_input, scope): Promise<Screenshot> => {
      const png = await scope.deadline.race(scope.page.screenshot({ type: 'png', timeout: scope.deadline.remaining(10_000) }));
      return { image: { mediaType: 'image/png', data: png.toString('base64') } };
    },
  });

  return [gotoTool, navbackTool, scrollTool, keysTool, waitTool, screenshotTool];
}
