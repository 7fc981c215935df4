// The MCP tools: the core's tool declarations of the groups the client chose (capabilities.ts), each
// run in a turn of its own on the active browser session and answered as the declaration says it
// reads, and start/end, which set and close that session. A failure is a tool result with isError
// and a message the model can act on, never a protocol error.
import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { inCapabilities, isDeckhandError, toolCatalog, type Tool } from '@deckhand/core';
import { z } from 'zod';
import type { ActiveSession } from './active-session.js';
import { inMcpTerms } from './mcp-terms.js';

export interface ToolServerOptions {
  active: ActiveSession;
  version: string;
  /** The page where a person can watch a session, where the server has one (the hosted /mcp). */
  liveViewUrl?: (session: { id: string }) => string;
  /** Told of a failure that is not one of Deckhand's own (a bug): the model gets a generic message. */
  onUnexpectedError?: (error: unknown, tool: string) => void;
}

export function createToolServer({ active, version, liveViewUrl, onUnexpectedError }: ToolServerOptions): McpServer {
  const server = new McpServer({ name: 'deckhand', version });
  const failure = (error: unknown, tool: string) => toolFailure(error, tool, onUnexpectedError);

  for (const tool of inCapabilities(toolCatalog({}), ['core', ...active.options.capabilities]) as Tool<z.ZodObject>[]) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input,
        ...(tool.output ? { outputSchema: tool.output } : {}),
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: tool.destructive ?? false, openWorldHint: tool.openWorld ?? false },
      },
      async (input: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult> => {
        const progress = progressOf(ctx);
        try {
          await progress(0, `${tool.name}: waiting for the browser session`);
          const session = await active.current();
          await progress(1, `${tool.name}: running on session ${session.id}`);
          const view = await session.runTool(tool, input, ctx.mcpReq.signal);
          await progress(2, `${tool.name}: done`);
          const text = inMcpTerms(view.text);
          // An act that found nothing to do is a failure the model should see as one.
          if (view.failed) return { isError: true, content: [{ type: 'text', text }] };
          return {
            content: [{ type: 'text', text }, ...(view.image ? [{ type: 'image' as const, data: view.image.data, mimeType: view.image.mediaType }] : [])],
            ...(tool.output && view.structured ? { structuredContent: view.structured } : {}),
          };
        } catch (error) {
          return failure(error, tool.name);
        }
      },
    );
  }

  server.registerTool(
    'start',
    {
      description: 'Open a browser session, or attach to an existing one by its id, and make it the one the other tools use.',
      inputSchema: z.object({ sessionId: z.string().min(1).optional().describe('An existing session of this project to attach to') }),
      outputSchema: z.object({ sessionId: z.string(), liveViewUrl: z.string().optional() }),
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async ({ sessionId }, ctx) => {
      try {
        await progressOf(ctx)(0, sessionId ? `attaching to ${sessionId}` : 'starting a browser');
        const session = await active.start(sessionId);
        const live = liveViewUrl?.(session);
        const structured = { sessionId: session.id, ...(live && { liveViewUrl: live }) };
        const watch = live ? ` Watch it at ${live}` : '';
        return { content: [{ type: 'text', text: `Browser session ${session.id} is active.${watch}` }], structuredContent: structured };
      } catch (error) {
        return failure(error, 'start');
      }
    },
  );

  server.registerTool(
    'end',
    {
      description: 'Close the active browser session.',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    async () => {
      try {
        const ended = await active.end();
        return { content: [{ type: 'text', text: ended ? `Browser session ${ended} is closed.` : 'There was no active browser session.' }] };
      } catch (error) {
        return failure(error, 'end');
      }
    },
  );
  return server;
}

function toolFailure(error: unknown, tool: string, onUnexpected?: (error: unknown, tool: string) => void): CallToolResult {
  let text: string;
  if (isDeckhandError(error)) {
    text = inMcpTerms(error.message);
    if (error.code === 'session_gone' || error.code === 'session_not_found') text += '. Call start to open a new browser session.';
  } else {
    onUnexpected?.(error, tool);
    text = `${tool} failed because of an internal error; try again, or call start for a fresh browser session.`;
  }
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Sends progress notifications when the client asked for them (a progressToken on the call). */
function progressOf(ctx: ServerContext): (progress: number, message: string) => Promise<void> {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return async () => undefined;
  return (progress, message) =>
    ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, total: 2, message } }).catch(() => undefined);
}
