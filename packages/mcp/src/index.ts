// The MCP tool server: the tools, and the Streamable HTTP endpoint the main server mounts at /mcp.
export { ActiveSession } from './active-session.js';
export type { DrivenSession, RemoteSessions } from './driven-session.js';
export { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from './http-endpoint.js';
export { presentedMcpKey, type PresentedKey } from './mcp-key.js';
export { sessionOptionsFromQuery } from './query-options.js';
export { DEFAULT_SESSION_OPTIONS, type McpSessionOptions } from './session-options.js';
export type { McpSessionRecords } from './session-records.js';
export { createToolServer } from './tool-server.js';
export const MCP_SERVER_VERSION = '0.1.0';
