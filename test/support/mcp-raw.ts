// For tests that speak MCP's JSON-RPC by hand: the per-request `_meta` a 2026-07-28 (stateless) request carries.
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
