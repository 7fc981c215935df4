// A tool: one declaration the agent loop, the agent cache and the MCP server all read, and nothing
// else says anything about it. It knows nothing of its callers: a name, one sentence for the model, a
// zod input (and output, where the answer is data), its annotations, the group it belongs to, how a
// run of it is recorded for the agent cache, a handle that runs the session's operations within the
// scope it is given (the MCP call's own turn, or the agent run's), and how its result reads.
import type { z } from 'zod';
import type { OperationScope } from '../scope/operation-scope.js';
import type { ActResult } from '../types.js';

/**
 * The group a tool is served in, so an MCP client can choose (like Playwright MCP's capabilities):
 * `core` the spec's page tools, `read` the page read as a picture or an outline, `page` history,
 * keys, scrolling and waiting, `tabs`, `files` (uploads), `dialogs`, `vision` (coordinates on a
 * screenshot) and `agent` (the agent's own: planning, finishing, form filling, web search).
 */
export type ToolCapability = 'core' | 'read' | 'page' | 'tabs' | 'files' | 'dialogs' | 'vision' | 'agent';

/** How a result reads to a client: a sentence, the data when it is data, a picture when it is one. */
export interface ToolView {
  text: string;
  structured?: Record<string, unknown>;
  image?: { mediaType: 'image/png'; data: string };
  /** The call ran but did not do what was asked (an act that found nothing): a failure to show as one. */
  failed?: boolean;
}

/**
 * How a successful call becomes agent-cache steps: `input` replays the call with the same input;
 * `actions` keeps the Actions each act it made resolved to (replayed with no model). A tool that
 * changes the page with neither cannot be replayed, and a run that used it is not cached.
 */
export type ToolRecording = 'input' | { actions(input: unknown, output: unknown): Array<{ instruction: string; result: Partial<ActResult> }> };

export interface Tool<Input extends z.ZodType = z.ZodType, Output = unknown> {
  name: string;
  /** Names this capability had before (read from old agent-cache entries only, never offered). */
  aliases?: string[];
  description: string;
  input: Input;
  /** The shape of `view(...).structured`, for callers that publish it (MCP's outputSchema). */
  output?: z.ZodObject;
  /** Reads the page without changing it (observe, extract); callers may run it without confirmation. */
  readOnly: boolean;
  /** May lose what the user had (close a tab, dismiss a dialog). */
  destructive?: boolean;
  /** Reaches outside the page it is on (opens an address, searches the web). */
  openWorld?: boolean;
  capability: ToolCapability;
  record?: ToolRecording;
  handle(input: z.infer<Input>, scope: OperationScope): Promise<Output>;
  /** How the result reads; without it, as JSON text. */
  view?(output: Output): ToolView;
}

/** Keeps a tool's input and output types together where it is declared. */
export function defineTool<Input extends z.ZodType, Output>(tool: Tool<Input, Output>): Tool<Input, Output> {
  return tool;
}

/** A result as the tool says it reads. */
export function viewOf(tool: Tool, output: unknown): ToolView {
  return tool.view ? tool.view(output) : { text: JSON.stringify(output) };
}
