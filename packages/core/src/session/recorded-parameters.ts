// The request as history records it: variables by name only and a model by name only, so neither
// variable values nor model credentials ever reach replay.
import type { ModelConfigOrName, Variables } from '../types.js';

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
      ...(model !== undefined && { model: typeof model === 'string' ? model : model.modelName }),
      ...(variables !== undefined && { variables: Object.keys(variables) }),
    },
  };
}
