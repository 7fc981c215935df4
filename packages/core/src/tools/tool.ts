// A tool: one small declaration the agent loop and the MCP server both list and call. It knows
// nothing of either: a name, one sentence for the model, a zod input, whether it only reads the
// page, and a handle that runs the session's operations within the scope it is given (the MCP call's
// own turn, or the agent run's).
import type { z } from 'zod';
import type { OperationScope } from '../scope/operation-scope.js';

export interface Tool<Input extends z.ZodType = z.ZodType, Output = unknown> {
  name: string;
  description: string;
  input: Input;
  /** Reads the page without changing it (observe, extract); callers may run it without confirmation. */
  readOnly: boolean;
  handle(input: z.infer<Input>, scope: OperationScope): Promise<Output>;
}

/** Keeps a tool's input and output types together where it is declared. */
export function defineTool<Input extends z.ZodType, Output>(tool: Tool<Input, Output>): Tool<Input, Output> {
  return tool;
}
