// Which groups of tools an MCP client is served (like Playwright MCP's --caps): the spec's six always,
// plus the groups named by the `caps` query parameter of /mcp or deckhand-mcp's `--caps` flag, a
// comma-separated list, or `all`. Unset: the core read tools too (screenshot, outline).
import { DeckhandError, toolCatalog, type ToolCapability } from '@deckhand/core';

export type McpCapability = Exclude<ToolCapability, 'core' | 'agent'>;

/** The groups the tools declare, which a client may ask for; the agent's own tools (think, done, fillForm, search) are not served. */
export const MCP_CAPABILITIES: readonly McpCapability[] = [...new Set(toolCatalog({}).map((tool) => tool.capability))]
  .filter((group): group is McpCapability => group !== 'core' && group !== 'agent')
  .sort();

export const DEFAULT_CAPABILITIES: McpCapability[] = ['read'];

/** `core` (the spec's six only), a list such as `read,page`, or `all`; anything else (an empty list too) is refused naming `setting`. */
export function parseCapabilities(value: string, setting: string): McpCapability[] {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const use = `use core, ${MCP_CAPABILITIES.join(', ')} or all, comma-separated`;
  // An empty list is most likely a template's unset value: refused rather than read as `core`.
  if (names.length === 0) throw new DeckhandError('validation_error', `${setting} names no group: ${use}`);
  const unknown = names.filter((name) => name !== 'core' && name !== 'all' && !(MCP_CAPABILITIES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new DeckhandError('validation_error', `${setting} names unknown groups (${unknown.join(', ')}): ${use}`);
  if (names.includes('all')) return [...MCP_CAPABILITIES];
  return MCP_CAPABILITIES.filter((name) => names.includes(name));
}
