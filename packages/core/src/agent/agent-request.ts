// An agentExecute request, checked and normalised before the run takes the session's turn: the mode
// (mode wins over the deprecated cua flag), the model (a string in agentConfig.model with the legacy
// provider beside it counts as that provider's), the options' defaults, and what this server cannot
// do refused up front: a mode it has no tools for is 422, a search with no provider configured is 400.
import type { SearchProvider } from '../config.js';
import { DeckhandError } from '../errors.js';
import { computerUseOf, COMPUTER_USE_MODELS } from '../models/computer-use.js';
import type { ModelConfig } from '../models/model-config.js';
import { resolveCallModel, type ModelTarget } from '../models/resolve-model.js';
import type { SessionSettings } from '../scope/session-settings.js';
import type { AgentExecuteRequest, FrameId, ModelConfigOrName, Variables } from '../types.js';
import type { AgentMode } from './agent-registry.js';

export const DEFAULT_MAX_STEPS = 20;
export const DEFAULT_TOOL_TIMEOUT_MS = 45_000;

export interface AgentPlan {
  instruction: string;
  mode: AgentMode;
  /** The agent model: agentConfig.model; absent, the session's (its in-process model object, else its modelName). */
  model?: ModelConfig | string;
  target: ModelTarget;
  /** The model inside act/observe/extract tools: executionModel, else the agent model; absent, the session's. */
  executionModel?: ModelConfigOrName;
  systemPrompt?: string;
  maxSteps: number;
  toolTimeoutMs: number;
  variables?: Variables;
  frameId?: FrameId;
  highlightCursor: boolean;
  /** Record the run for the agent cache (cached-agent.ts). */
  shouldCache: boolean;
  /** The web search provider, when useSearch asked for it (the search tool is offered only then). */
  search?: SearchProvider;
}

export function planAgent(request: AgentExecuteRequest, settings: SessionSettings, searchProvider?: SearchProvider): AgentPlan {
  const { agentConfig: config, executeOptions: options } = request;
  const mode: AgentMode = config.mode ?? (config.cua ? 'cua' : 'dom');
  const model: ModelConfig | string | undefined =
    typeof config.model === 'string' && config.provider && !config.model.includes('/')
      ? { modelName: config.model, provider: config.provider }
      : config.model;
  const target = resolveCallModel(model, settings);
  checkMode(mode, target);
  if (options.useSearch && !searchProvider) {
    throw new DeckhandError('validation_error', 'useSearch needs a web search provider, and none is configured on this server', [
      { path: 'executeOptions.useSearch', message: 'no search provider is configured' },
    ]);
  }
  return {
    instruction: options.instruction,
    mode,
    model,
    target,
    executionModel: config.executionModel ?? model,
    systemPrompt: config.systemPrompt ?? settings.systemPrompt,
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    toolTimeoutMs: options.toolTimeout ?? DEFAULT_TOOL_TIMEOUT_MS,
    variables: options.variables,
    frameId: request.frameId ?? undefined,
    highlightCursor: options.highlightCursor ?? false,
    shouldCache: request.shouldCache ?? false,
    search: options.useSearch ? searchProvider : undefined,
  };
}

/** hybrid needs a model that reads images (any provider model; the offline one reads none); cua needs computer use. */
function checkMode(mode: AgentMode, target: ModelTarget): void {
  if (mode === 'dom') return;
  if (target.kind === 'builtin') {
    throw new DeckhandError('unprocessable', `The built-in offline model has no ${mode === 'cua' ? 'computer use' : 'vision'}: use mode "dom"`);
  }
  if (mode === 'cua' && !computerUseOf(target)) {
    throw new DeckhandError(
      'unprocessable',
      `Model ${target.providerName}/${target.modelId} has no computer use: mode "cua" needs ${COMPUTER_USE_MODELS}; use mode "hybrid" or "dom" with this model`,
    );
  }
}
