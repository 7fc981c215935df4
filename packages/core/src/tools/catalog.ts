// Every tool declaration in one list, for callers that choose by a tool's own fields (its group,
// its recording) rather than by name: the agent's modes, the agent cache's replay, the MCP server.
import type { SearchProvider } from '../config.js';
import { actionTools } from './action-tools.js';
import { browserTools } from './browser-tools.js';
import { doneTool, thinkTool } from './control-tools.js';
import { coordinateTools } from './coordinate-tools.js';
import { dialogTool } from './dialog-tool.js';
import { fileTools } from './file-tools.js';
import { searchTool } from './search-tool.js';
import { tabsTool } from './tab-tools.js';
import type { Tool, ToolCapability } from './tool.js';
import type { ToolOptions } from './tool-options.js';

/** `search`: the web search provider, when the caller offers web search. */
export function toolCatalog(options: ToolOptions, search?: SearchProvider): Tool[] {
  return [...actionTools(options), ...browserTools(options), ...coordinateTools(options), tabsTool, ...fileTools(options), dialogTool(options), ...(search ? [searchTool(search)] : []), thinkTool, doneTool] as Tool[];
}

export function inCapabilities(tools: Tool[], capabilities: readonly ToolCapability[]): Tool[] {
  return tools.filter((tool) => capabilities.includes(tool.capability));
}

/** The tool a name means, by its name or a name it had before (an old agent-cache entry's). */
export function toolNamed(tools: Tool[], name: string): Tool | undefined {
  return tools.find((tool) => tool.name === name) ?? tools.find((tool) => tool.aliases?.includes(name));
}
