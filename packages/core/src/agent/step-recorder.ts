// Records an agent run's deterministic steps for the agent cache by wrapping its tools, as each
// tool's declaration says (its `record`): a call that succeeded becomes a step. Before a tool that
// records Actions (act, fillForm) the page's outline is read, so each Action the call resolved to
// keeps the role and name its selector named then.
import type { CachedTarget } from '../cache/index.js';
import { snapshotOf } from '../snapshot/page-snapshot.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { Tool, ToolRecording } from '../tools/tool.js';
import type { Action, FrameId } from '../types.js';
import type { AgentCacheStep } from './agent-cache-entry.js';

export class StepRecorder {
  readonly steps: AgentCacheStep[];
  /**
   * A page-changing tool that cannot be replayed (a coordinate click, a provider's computer action)
   * ran: a replay would skip it and report the old success, so such a run is never an entry.
   */
  unrecordable?: string;

  constructor(
    private readonly frameId: FrameId | undefined,
    /** Steps already done before this recording took over (a replay that fell back). */
    done: AgentCacheStep[] = [],
  ) {
    this.steps = [...done];
  }

  wrap(tool: Tool): Tool {
    const recording = tool.record;
    if (recording === 'input') {
      return {
        ...tool,
        handle: async (input, scope) => {
          const output = await tool.handle(input, scope);
          if (!scope.signal.aborted) this.steps.push({ tool: tool.name, input: input as Record<string, unknown> });
          return output;
        },
      };
    }
    if (!recording) {
      if (tool.readOnly) return tool;
      return {
        ...tool,
        handle: async (input, scope) => {
          const output = await tool.handle(input, scope);
          this.unrecordable ??= tool.name;
          return output;
        },
      };
    }
    return {
      ...tool,
      handle: async (input, scope) => {
        const before = await this.#targets(scope);
        const output = await tool.handle(input, scope);
        if (!scope.signal.aborted) this.steps.push(...actionSteps(tool.name, recording, input, output, before));
        return output;
      },
    };
  }

  /** What each selectable element of the page is, by xpath, before an act changes the page. */
  async #targets(scope: OperationScope): Promise<Map<string, CachedTarget>> {
    try {
      const snapshot = await snapshotOf(scope, await scope.frame(this.frameId), {});
      return new Map([...snapshot.elements.values()].map((e) => [e.xpath, { role: e.role, name: e.name }]));
    } catch (error) {
      // Recording must not fail the step: without targets its Actions replay unchecked.
      if (scope.signal.aborted) throw error;
      return new Map();
    }
  }
}

/** The steps one successful call resolved to, one per act it made (a failed act records nothing). */
function actionSteps(
  toolName: string,
  recording: Exclude<ToolRecording, 'input'>,
  input: unknown,
  output: unknown,
  before: Map<string, CachedTarget>,
): AgentCacheStep[] {
  return recording
    .actions(input, output)
    .filter(({ result }) => result.success && (result.actions?.length ?? 0) > 0)
    .map(({ instruction, result }) => {
      // A backend node id names one document's node; a later page has other ids.
      const actions: Action[] = result.actions!.map(({ backendNodeId: _id, ...action }) => action);
      return { tool: toolName, instruction, actions, targets: actions.map((a) => (a.selector ? (before.get(a.selector.replace(/^xpath=/, '')) ?? null) : null)) };
    });
}
