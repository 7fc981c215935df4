// The session's tabs as one tool (as Playwright MCP's browser_tabs): list them, open a new one,
// choose the one the next tools act on, or close one. A tab an action opens (a popup) becomes active on
// its own (session/active-page.ts); this is for a client that wants another, or one the page opened later.
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { DeckhandError } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { defineTool } from './tool.js';

interface Tab {
  index: number;
  url: string;
  title: string;
  active: boolean;
}

const tabSchema = z.object({ index: z.number(), url: z.string(), title: z.string(), active: z.boolean() });

async function tabsOf(scope: OperationScope, active: Page): Promise<Tab[]> {
  const pages = scope.context.pages();
  // A tab that is still loading may not give its title yet: its address says which it is.
  const titles = await Promise.all(pages.map((page) => scope.deadline.race(page.title()).catch(() => '')));
  return pages.map((page, index) => ({ index, url: page.url(), title: titles[index]!, active: page === active }));
}

function tabAt(scope: OperationScope, index: number | undefined): Page {
  const pages = scope.context.pages();
  if (index === undefined) throw new DeckhandError('validation_error', 'index is required: the tab, as list numbers it');
  const page = pages[index];
  if (!page) throw new DeckhandError('validation_error', `There is no tab ${index}: ${pages.length} tab(s) are open (0–${pages.length - 1})`);
  return page;
}

export const tabsTool = defineTool({
  name: 'tabs',
  description: 'List the browser tabs, open a new one, choose the one the other tools act on, or close one.',
  input: z.object({
    action: z.enum(['list', 'new', 'select', 'close']),
    index: z.number().int().min(0).optional().describe('The tab, as list numbers it (select; close, where the active tab is the default)'),
  }),
  output: z.object({ tabs: z.array(tabSchema) }),
  readOnly: false,
  destructive: true,
  capability: 'tabs',
  handle: async ({ action, index }, scope) => {
    let active = scope.page;
    if (action === 'new') {
      active = await scope.deadline.race(scope.context.newPage());
      scope.activate(active);
    } else if (action === 'select') {
      active = tabAt(scope, index);
      scope.activate(active);
      await scope.deadline.race(active.bringToFront());
    } else if (action === 'close') {
      const closing = index === undefined ? scope.page : tabAt(scope, index);
      await scope.deadline.race(closing.close());
      if (closing === scope.page) {
        // The most recent tab left takes over, as when a page closes itself; none left: a fresh one.
        active = scope.context.pages().at(-1) ?? (await scope.deadline.race(scope.context.newPage()));
        scope.activate(active);
      }
    }
    return { tabs: await tabsOf(scope, active) };
  },
  view: (result) => ({
    text: result.tabs.map((tab) => `${tab.active ? '*' : ' '} ${tab.index}: ${tab.title ? `"${tab.title}" ` : ''}${tab.url}`).join('\n'),
    structured: result,
  }),
});
