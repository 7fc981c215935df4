// Where the hosted endpoint's 2025-11-25 MCP sessions are known beyond this process: on a cluster each is
// recorded in Redis (project, node, the browser session it drives; server/src/cluster/mcp-sessions.ts),
// so a request that reaches another node with its Mcp-Session-Id is sent on to the node that holds it.

export interface McpSessionRecords {
  /** Records (or refreshes) an MCP session held here and the browser session it drives now; a failure only leaves it unknown elsewhere. */
  hold(mcpSessionId: string, projectId: string, browserSessionId: string | undefined): void;
  /** The MCP session closed here. */
  forget(mcpSessionId: string): void;
  /** The answer of the node that holds this project's MCP session, or undefined when none does. */
  elsewhere(mcpSessionId: string, projectId: string, request: Request): Promise<Response | undefined>;
}
