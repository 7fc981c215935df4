// The agent's tools, by mode: dom drives the page by its outline; hybrid adds the coordinate tools
// for vision models (they read screenshots); cua has the provider's own computer tool, whose actions
// run through the same coordinate tools (see cua-actions.ts), plus wait, screenshot and goto/navback.
import { actionTools } from '../tools/action-tools.js';
import { browserTools } from '../tools/browser-tools.js';
import { coordinateTools } from '../tools/coordinate-tools.js';
import { doneTool, thinkTool } from '../tools/control-tools.js';
import { searchTool } from '../tools/search-tool.js';
import type { Tool } from '../tools/tool.js';
import type { SearchProvider } from '../config.js';
import type { ToolOptions } from '../tools/tool-options.js';

export type AgentMode = 'dom' | 'hybrid' | 'cua';

export const DONE_TOOL = doneTool.name;

/** `search`: the web search provider, when the run asked for useSearch. */
export function agentTools(mode: AgentMode, options: ToolOptions, search?: SearchProvider): Tool[] {
  const dom = [...actionTools(options), ...browserTools(options), ...(search ? [searchTool(search)] : [])];
  switch (mode) {
    case 'dom':
      return [...dom, thinkTool, doneTool] as Tool[];
    case 'hybrid':
      return [...dom, ...coordinateTools(options), thinkTool, doneTool] as Tool[];
    case 'cua':
      return [...browserTools(options), ...coordinateTools(options)] as Tool[];
  }
}
