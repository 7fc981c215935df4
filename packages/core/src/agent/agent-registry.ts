// The agent's tools, by mode, chosen by each declaration's group: dom drives the page by its outline
// (the core, read, page and dialog tools, the agent's own; not tabs or files); hybrid adds the
// coordinate tools for vision models (they read screenshots); cua has the provider's own computer
// tool, whose actions run through the same coordinate tools (see cua-actions.ts) and the page tools.
import type { SearchProvider } from '../config.js';
import { doneTool } from '../tools/control-tools.js';
import { inCapabilities, toolCatalog } from '../tools/catalog.js';
import type { Tool, ToolCapability } from '../tools/tool.js';
import type { ToolOptions } from '../tools/tool-options.js';

export type AgentMode = 'dom' | 'hybrid' | 'cua';

export const DONE_TOOL = doneTool.name;

const MODE_CAPABILITIES: Record<AgentMode, ToolCapability[]> = {
  dom: ['core', 'read', 'page', 'dialogs', 'agent'],
  hybrid: ['core', 'read', 'page', 'dialogs', 'vision', 'agent'],
  // The provider's computer tool is what the model sees; these are what its actions run as.
  cua: ['core', 'read', 'page', 'vision'],
};

/** `search`: the web search provider, when the run asked for useSearch. */
export function agentTools(mode: AgentMode, options: ToolOptions, search?: SearchProvider): Tool[] {
  return inCapabilities(toolCatalog(options, mode === 'cua' ? undefined : search), MODE_CAPABILITIES[mode]);
}
