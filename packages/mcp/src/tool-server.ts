// The six MCP tools: the core's four page tools, each run in a turn of its own on the active browser
// session, and start/end, which set and close that session. A failure is a tool result with isError
// and a message the model can act on, never a protocol error.
import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { isDeckhandError, PAGE_TOOLS, type Tool } from '@deckhand/core';
import { z } from 'zod';
import type { ActiveSession } from './active-session.js';

export interface ToolServerOptions {
  active: ActiveSession;
  version: string;
  /** Told of a failure that is not one of Deckhand's own (a bug): the model gets a generic message. */
  onUnexpectedError?: (error: unknown, tool: string) => void;
}

/** An element observe found: the Action shape of the HTTP API (more fields may come; they pass). */
const elementSchema = z.looseObject({
  selector: z.string(),
  description: z.string(),
  backendNodeId: z.number().optional(),
  method: z.string().optional(),
  arguments: z.array(z.string()).optional(),
});

/** Structured results where the answer is data; the rest answer in words only. */
const OUTPUTS: Record<string, { schema: z.ZodObject; shape: (result: unknown) => Record<string, unknown> }> = {
  observe: { schema: z.object({ elements: z.array(elementSchema) }), shape: (result) => ({ elements: result }) },
  extract: {
    schema: z.object({ extraction: z.unknown() }),
    // The model's answer ({extraction}) or, without an instruction, the page's text ({pageText}).
    shape: (result) => ({ extraction: isRecord(result) ? (result.extraction ?? result.pageText ?? result) : result }),
  },
};

export function createToolServer({ active, version, onUnexpectedError }: ToolServerOptions): McpServer {
  const server = new McpServer({ name: 'deckhand', version });
  const failure = (error: unknown, tool: string) => toolFailure(error, tool, onUnexpectedError);

  for (const tool of PAGE_TOOLS as Tool<z.ZodObject>[]) {
    const output = OUTPUTS[tool.name];
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input,
        ...(output ? { outputSchema: output.schema } : {}),
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: tool.name === 'navigate' },
      },
      async (input: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult> => {
        const progress = progressOf(ctx);
        try {
          await progress(0, `${tool.name}: waiting for the browser session`);
          const session = await active.current();
          await progress(1, `${tool.name}: running on session ${session.id}`);
          const result = await session.runTool(tool, input, { signal: ctx.mcpReq.signal });
          await progress(2, `${tool.name}: done`);
          // An act that found nothing to do is a failure the model should see as one.
          if (isRecord(result) && result.success === false) return { isError: true, content: [{ type: 'text', text: describe(tool.name, result) }] };
          if (!output) return { content: [{ type: 'text', text: describe(tool.name, result) }] };
          const structured = output.shape(result);
          return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
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
      outputSchema: z.object({ sessionId: z.string() }),
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async ({ sessionId }, ctx) => {
      try {
        await progressOf(ctx)(0, sessionId ? `attaching to ${sessionId}` : 'starting a browser');
        const session = await active.start(sessionId);
        const structured = { sessionId: session.id };
        return { content: [{ type: 'text', text: `Browser session ${session.id} is active.` }], structuredContent: structured };
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
    text = error.message;
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

function describe(tool: string, result: unknown): string {
  if (tool === 'navigate') {
    const response = isRecord(result) && isRecord(result.response) ? result.response : undefined;
    return response ? `Opened ${String(response.url)} (HTTP ${String(response.status)}).` : 'Navigated (no document response).';
  }
  // act: its own sentence says what was done, or why not.
  if (isRecord(result) && typeof result.message === 'string') return result.message;
  return JSON.stringify(result);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
