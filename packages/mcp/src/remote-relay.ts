// Remote mode of the binary: with DECKHAND_API_URL and DECKHAND_API_KEY set, stdio is relayed message
// by message to that Deckhand's hosted /mcp, so the tools run there (the same tools, one copy) in the
// key's project. The flags that have a hosted query parameter travel as one; the rest stay local.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { DEFAULT_CAPABILITIES } from './capabilities.js';
import type { McpSessionOptions } from './session-options.js';

export function remoteMcpUrl(apiUrl: string, options: McpSessionOptions, defaultModel: string): URL {
  const url = new URL(`${apiUrl.replace(/\/+$/, '')}/mcp`);
  if (options.modelName !== defaultModel) url.searchParams.set('modelName', options.modelName);
  if (options.modelApiKey) url.searchParams.set('modelApiKey', options.modelApiKey);
  for (const name of ['keepAlive', 'proxies', 'verified', 'autoStart'] as const) if (options[name]) url.searchParams.set(name, 'true');
  if (options.capabilities.join(',') !== DEFAULT_CAPABILITIES.join(',')) url.searchParams.set('caps', options.capabilities.join(',') || 'core');
  return url;
}

/** Relays until stdin closes; answers the function that ends the remote MCP session. */
export async function relayToRemote(url: URL, apiKey: string, warn: (message: string) => void): Promise<() => Promise<void>> {
  const remote = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } });
  const local = new StdioServerTransport();
  local.onmessage = (message) => {
    remote.send(message).catch((error: unknown) => {
      const text = `remote Deckhand at ${url.origin}: ${error instanceof Error ? error.message : String(error)}`;
      warn(text);
      // A request the remote refused still gets its answer, so the client is not left waiting.
      if ('id' in message && 'method' in message) void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: text } });
    });
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    // The HTTP transport sends the negotiated revision on later requests, as the SDK client would tell it.
    const version = 'result' in message ? (message.result as { protocolVersion?: unknown }).protocolVersion : undefined;
    if (typeof version === 'string') remote.setProtocolVersion(version);
    void local.send(message);
  };
  remote.onerror = (error) => warn(`remote Deckhand at ${url.origin}: ${error.message}`);
  local.onerror = (error) => warn(error.message);
  await remote.start();
  await local.start();
  return async () => {
    await remote.terminateSession().catch(() => undefined);
    await remote.close();
  };
}
