// The request as history records it: variables by name only and a model by name only, so neither
// variable values nor model credentials ever reach replay.
import type { AgentExecuteRequest, ModelConfigOrName, Variables } from '../types.js';

interface RecordableRequest {
  options?: { model?: ModelConfigOrName; variables?: Variables } & Record<string, unknown>;
  streamResponse?: boolean;
}

export function recordedParameters<T extends RecordableRequest>(request: T): unknown {
  const { streamResponse: _transport, options, ...rest } = request;
  if (!options) return rest;
  const { model, variables, ...otherOptions } = options;
  return {
    ...rest,
    options: {
      ...otherOptions,
      ...(model !== undefined && { model: modelName(model) }),
      ...(variables !== undefined && { variables: Object.keys(variables) }),
    },
  };
}

/** An agent request as history records it: models by name, variables by name. */
export function recordedAgentParameters(request: AgentExecuteRequest): unknown {
  const { streamResponse: _transport, agentConfig, executeOptions, ...rest } = request;
  const { model, executionModel, ...config } = agentConfig;
  const { variables, ...options } = executeOptions;
  return {
    ...rest,
    agentConfig: { ...config, ...(model !== undefined && { model: modelName(model) }), ...(executionModel !== undefined && { executionModel: modelName(executionModel) }) },
    executeOptions: { ...options, ...(variables !== undefined && { variables: Object.keys(variables) }) },
  };
}

function modelName(model: ModelConfigOrName): string {
  return typeof model === 'string' ? model : model.modelName;
}
