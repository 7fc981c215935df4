// What a caller configures its tools with: the model that answers inside them (act, observe,
// extract), the variables a typing tool may substitute, and the frame they work in. The same for the
// agent and an MCP server; a tool never learns who called it.
import type { FrameId, ModelConfigOrName, Variables } from '../types.js';

export interface ToolOptions {
  /** The model for act/observe/extract inside a tool; absent means the session's. */
  model?: ModelConfigOrName;
  /** `%name%` placeholders in what a tool types or fills are replaced only as it runs. */
  variables?: Variables;
  frameId?: FrameId;
}
