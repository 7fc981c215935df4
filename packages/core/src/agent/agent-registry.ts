// The agent's tools, by mode. Only dom exists so far: hybrid (coordinate tools on screenshots) and
// cua (the provider's computer-use tool) are refused before a run starts (see agent-request.ts).
import { actionTools } from '../tools/action-tools.js';
import { browserTools } from '../tools/browser-tools.js';
import { doneTool, thinkTool } from '../tools/control-tools.js';
import { searchTool } from '../tools/search-tool.js';
import type { Tool } from '../tools/tool.js';
import type { SearchProvider } from '../config.js';
import type { ToolOptions } from '../tools/tool-options.js';

export type AgentMode = 'dom' | 'hybrid' | 'cua';

export const DONE_TOOL = doneTool.name;

/** `search`: the web search provider, when the run asked for useSearch. */
export function agentTools(mode: AgentMode, options: ToolOptions, search?: SearchProvider): Tool[] {
  if (mode !== 'dom') return [];
  return [...actionTools(options), ...browserTools(options), ...(search ? [searchTool(search)] : []), thinkTool, doneTool] as Tool[];
}
