// The browser session an MCP session drives, wherever it runs: in this process (a core Session), or on
// another node of a cluster, where each tool call is sent to run (server/src/cluster/remote-tools.ts).
import { viewOf, type Session, type Tool, type ToolView } from '@deckhand/core';

export interface DrivenSession {
  readonly id: string;
  /** It can take a call (ready or busy), as far as this process knows. */
  readonly live: boolean;
  /** A call is running on it: its MCP session is not idle. */
  readonly busy: boolean;
  /** Runs one tool in a turn of its own and answers how its result reads. */
  runTool(tool: Tool, input: unknown, signal: AbortSignal): Promise<ToolView>;
  /** Ends the browser session. */
  stop(): Promise<void>;
}

/** Browser sessions other nodes of a cluster hold, for `start {sessionId}` on a node that does not. */
export interface RemoteSessions {
  /** This project's session `sessionId` as another node holds it; undefined when none does (404/410 thrown as the owner says them). */
  attach(projectId: string, sessionId: string): Promise<DrivenSession | undefined>;
}

export function drivenHere(session: Session): DrivenSession {
  return {
    id: session.id,
    get live() {
      return session.state === 'ready' || session.state === 'busy';
    },
    get busy() {
      return session.state === 'busy';
    },
    runTool: async (tool, input, signal) => viewOf(tool, await session.runTool(tool, input, { signal })),
    stop: () => session.stop('ended'),
  };
}
