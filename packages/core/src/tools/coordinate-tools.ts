// Tools that act at coordinates, for vision models that read screenshots (the agent's hybrid and cua
// modes): click, double click, type at the focus, drag along a path, scroll at a point, move the
// mouse there, press keys. Coordinates are CSS pixels of the page's viewport (what a screenshot of
// it shows at scale 1); a point outside it is a refused call, never a click somewhere else.
import { z } from 'zod';
import type { Page } from 'playwright-core';
import { substituteVariables } from '../act/variables.js';
import { ActionSettle, settledBeforeRead } from '../dom/settle.js';
import { DeckhandError } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { defineTool } from './tool.js';
import type { ToolOptions } from './tool-options.js';

export interface Viewport {
  width: number;
  height: number;
}

/** The viewport in CSS pixels: the page's emulated size, or the window's when it has none (a headful window). */
export async function viewportOf(page: Page): Promise<Viewport> {
  const size = page.viewportSize();
  if (size) return size;
  return page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
}

const coordinate = (axis: 'x' | 'y') => z.number().finite().describe(`${axis} in CSS pixels of the viewport, from the ${axis === 'x' ? 'left' : 'top'} edge`);
const point = z.object({ x: coordinate('x'), y: coordinate('y') });
type Point = z.infer<typeof point>;

/** A point off the viewport is the caller's mistake, said with the bounds so the model can correct it. */
async function checkInside(scope: OperationScope, points: Point[]): Promise<void> {
  const { width, height } = await scope.deadline.race(viewportOf(scope.page));
  const outside = points.find((p) => p.x < 0 || p.y < 0 || p.x >= width || p.y >= height);
  if (outside) {
    throw new DeckhandError('validation_error', `(${outside.x}, ${outside.y}) is outside the viewport: x must be 0–${width - 1} and y 0–${height - 1}`);
  }
}

/**
 * Runs input on the page as an act runs its action (dom/settle.ts): what it starts (a navigation a
 * key submitted, a fetch, a short timer) is followed from the moment it runs, and the call answers
 * once none of it is pending, so the next screenshot shows its result.
 */
async function settled(scope: OperationScope, input: () => Promise<unknown>): Promise<void> {
  const page = scope.page;
  await settledBeforeRead(page.context(), scope.settings.domSettleTimeoutMs, { quiet: false, signal: scope.signal });
  const settle = await ActionSettle.begin(page, page.mainFrame());
  try {
    await scope.deadline.race(input());
  } catch (error) {
    await settle.cancel();
    throw error;
  }
  await settle.actionDone({ quietMs: scope.config.settleQuietMs, timeoutMs: scope.settings.domSettleTimeoutMs });
  await settledBeforeRead(page.context(), scope.settings.domSettleTimeoutMs, { quiet: false, signal: scope.signal });
}

/** Key names as computer-use models write them (CTRL, cmd, Return, PgDn) → Playwright's. */
const KEY_NAMES: Record<string, string> = {
  ctrl: 'Control', control: 'Control', cmd: 'Meta', command: 'Meta', meta: 'Meta', super: 'Meta', win: 'Meta',
  alt: 'Alt', option: 'Alt', shift: 'Shift', enter: 'Enter', return: 'Enter', esc: 'Escape', escape: 'Escape',
  tab: 'Tab', space: 'Space', backspace: 'Backspace', delete: 'Delete', del: 'Delete', insert: 'Insert',
  up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight',
  arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight',
  home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown', pgup: 'PageUp', pgdn: 'PageDown',
};

export function playwrightKey(name: string): string {
  const known = KEY_NAMES[name.toLowerCase()];
  if (known) return known;
  if (/^f\d{1,2}$/i.test(name)) return name.toUpperCase();
  return name.length === 1 ? name : name.charAt(0).toUpperCase() + name.slice(1);
}

export function coordinateTools(options: ToolOptions) {
  const clickTool = defineTool({
    name: 'click',
    description: 'Click at a point of the screenshot (CSS pixels of the viewport), with the left button unless told otherwise.',
    input: point.extend({ button: z.enum(['left', 'right', 'middle']).optional() }),
    readOnly: false,
    capability: 'vision',
    handle: async ({ x, y, button }, scope) => {
      await checkInside(scope, [{ x, y }]);
      await settled(scope, () => scope.page.mouse.click(x, y, { button: button ?? 'left' }));
      return { clicked: { x, y, button: button ?? 'left' } };
    },
  });

  const doubleClickTool = defineTool({
    name: 'doubleClick',
    description: 'Double-click at a point of the screenshot (CSS pixels of the viewport).',
    input: point,
    readOnly: false,
    capability: 'vision',
    handle: async ({ x, y }, scope) => {
      await checkInside(scope, [{ x, y }]);
      await settled(scope, () => scope.page.mouse.dblclick(x, y));
      return { doubleClicked: { x, y } };
    },
  });

  const typeTool = defineTool({
    name: 'type',
    description: 'Type text into whatever has the focus (click the field first); text may hold %variable% placeholders.',
    input: z.object({ text: z.string().min(1).describe('What to type, e.g. "%email%"') }),
    readOnly: false,
    capability: 'vision',
    handle: async ({ text }, scope) => {
      await settled(scope, () => scope.page.keyboard.type(substituteVariables(text, options.variables)));
      // The placeholder, never the value, goes back to the caller.
      return { typed: text };
    },
  });

  const dragTool = defineTool({
    name: 'drag',
    description: 'Press the left button at the first point, move through the others and release at the last.',
    input: z.object({ path: z.array(point).min(2).max(100).describe('The points of the drag, start first') }),
    readOnly: false,
    capability: 'vision',
    handle: async ({ path }, scope) => {
      await checkInside(scope, path);
      const mouse = scope.page.mouse;
      const [start, ...rest] = path as [Point, ...Point[]];
      await settled(scope, async () => {
        await mouse.move(start.x, start.y);
        await mouse.down();
        // A few intermediate moves per leg, so pages that track mousemove see a drag, not a jump.
        for (const p of rest) await mouse.move(p.x, p.y, { steps: 5 });
        await mouse.up();
      });
      return { dragged: { from: start, to: rest.at(-1) } };
    },
  });

  const scrollAtTool = defineTool({
    name: 'scrollAt',
    description: 'Turn the mouse wheel over a point: dy > 0 scrolls down, dx > 0 right (in CSS pixels).',
    input: point.extend({
      dx: z.number().finite().min(-100_000).max(100_000).default(0),
      dy: z.number().finite().min(-100_000).max(100_000).default(0),
    }),
    readOnly: false,
    capability: 'vision',
    handle: async ({ x, y, dx, dy }, scope) => {
      await checkInside(scope, [{ x, y }]);
      const page = scope.page;
      await settled(scope, async () => {
        await page.mouse.move(x, y);
        await page.mouse.wheel(dx, dy);
      });
      return { scrolled: { x, y, dx, dy } };
    },
  });

  const hoverTool = defineTool({
    name: 'hover',
    description: 'Move the mouse to a point of the screenshot without clicking (opens hover menus, shows tooltips).',
    input: point,
    readOnly: false,
    capability: 'vision',
    handle: async ({ x, y }, scope) => {
      await checkInside(scope, [{ x, y }]);
      await settled(scope, () => scope.page.mouse.move(x, y));
      return { movedTo: { x, y } };
    },
  });

  const keypressTool = defineTool({
    name: 'keypress',
    description: 'Press keys together as one shortcut, e.g. ["Control", "A"] or ["Enter"].',
    input: z.object({ keys: z.array(z.string().min(1)).min(1).max(6) }),
    readOnly: false,
    capability: 'vision',
    handle: async ({ keys }, scope) => {
      const combo = keys.map(playwrightKey).join('+');
      await settled(scope, () => scope.page.keyboard.press(combo));
      return { pressed: combo };
    },
  });

  return [clickTool, doubleClickTool, typeTool, dragTool, scrollAtTool, hoverTool, keypressTool];
}
