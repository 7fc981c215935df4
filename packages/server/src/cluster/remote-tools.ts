// MCP tools on a browser session another node holds. An MCP session on this node that attaches to it
// (`start {sessionId}`) sends each tool call to the owner's internal surface, which runs it on the
// session, for the project this node authenticated, and answers how its result reads (a ToolView).
// Each call has the forward deadline: an owner that does not take it in time fails the call (retry), and never runs it.
import { DeckhandError, isDeckhandError, toolCatalog, viewOf, type SessionManager, type ToolView } from '@deckhand/core';
import type { DrivenSession, RemoteSessions } from '@deckhand/mcp';
import type { ClusterSecret } from './cluster-secret';
import { INTERNAL_PREFIX } from './keys';
import { ownerUnavailable, OwnerUnreachable, sendToNode } from './forward';
import { refusalFrom } from './remote-channel';

/** The owner's route for one tool call, under the internal prefix. */
export const TOOL_CALL_PATH = '/mcp/tool';

/** The errors after which the session takes no more calls: the MCP session's next page tool starts afresh, as for a local one. */
const GONE = new Set(['session_gone', 'session_lost', 'session_not_found']);

/** Where this project's session runs when another node holds it (undefined: no other node does); 410 or 503 as the registry says. */
export type OwnerOf = (projectId: string, sessionId: string) => Promise<string | undefined>;

/** The owner's side: runs the tool on its session and answers the view. */
export async function serveToolCall(sessions: SessionManager, request: Request, projectId: string | undefined): Promise<Response> {
  const { sessionId, tool: name, input } = (await request.json().catch(() => ({}))) as { sessionId?: unknown; tool?: unknown; input?: unknown };
  const tool = toolCatalog({}).find((candidate) => candidate.name === name);
  if (!projectId || typeof sessionId !== 'string' || !tool) throw new DeckhandError('validation_error', 'Invalid internal tool call: sessionId, a known tool and the project are required');
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) throw new DeckhandError('validation_error', `Invalid input for ${tool.name}: ${parsed.error.issues[0]?.message ?? 'not its shape'}`);
  const session = sessions.get(projectId, sessionId);
  return Response.json(viewOf(tool, await session.runTool(tool, parsed.data, { signal: request.signal })));
}

/** The calling side: `start {sessionId}` on a node that does not hold the session; `deadlineMs`: the forward deadline (DECKHAND_FORWARD_DEADLINE_MS). */
export function remoteSessions(ownerOf: OwnerOf, secret: ClusterSecret, deadlineMs: number): RemoteSessions {
  return {
    async attach(projectId, sessionId) {
      if (!(await ownerOf(projectId, sessionId))) return undefined;
      const session = new RemoteSession(projectId, sessionId, ownerOf, secret, deadlineMs);
      // The registry may lag behind the owner: its own 404 or 410 answers the start.
      await session.call('GET', `/v1/sessions/${encodeURIComponent(sessionId)}`);
      return session;
    },
  };
}

class RemoteSession implements DrivenSession {
  #gone = false;
  #running = 0;

  constructor(
    readonly projectId: string,
    readonly id: string,
    private readonly ownerOf: OwnerOf,
    private readonly secret: ClusterSecret,
    private readonly deadlineMs: number,
  ) {}

  get live(): boolean {
    return !this.#gone;
  }

  get busy(): boolean {
    return this.#running > 0;
  }

  async runTool(tool: { name: string }, input: unknown, signal: AbortSignal): Promise<ToolView> {
    this.#running += 1;
    try {
      return (await this.call('POST', TOOL_CALL_PATH, { sessionId: this.id, tool: tool.name, input }, signal)) as ToolView;
    } finally {
      this.#running -= 1;
    }
  }

  async stop(): Promise<void> {
    await this.call('POST', `/v1/sessions/${encodeURIComponent(this.id)}/end`, {});
    this.#gone = true;
  }

  /** One internal request to the owner (looked up again each time: a node that died is seen as lost). */
  async call(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    try {
      const owner = await this.ownerOf(this.projectId, this.id);
      if (!owner) throw new DeckhandError('session_not_found', `Session ${this.id} not found`);
      const request = {
        path: `${INTERNAL_PREFIX}${path}`,
        method,
        headers: { ...this.secret.headersFor(this.projectId), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
        ...(signal && { signal }),
      };
      const answer = await sendToNode(owner, request, this.deadlineMs).catch((error: unknown) => {
        if (signal?.aborted || !(error instanceof OwnerUnreachable)) throw error;
        throw ownerUnavailable(`session ${this.id}`, error);
      });
      const text = await answer.text();
      if (!answer.ok) throw refusalFrom(answer.status, text);
      return JSON.parse(text) as unknown;
    } catch (error) {
      if (isDeckhandError(error) && GONE.has(error.code)) this.#gone = true;
      throw error;
    }
  }
}
