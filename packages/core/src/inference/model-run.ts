// What every model-driven operation shares: which model answers (call, then session: its in-process
// model object, else its model name; then the built-in default), with which key, and how its usage
// reaches the history record. The clock is the operation's own deadline.
import { createInference, type Inference } from './index.js';
import type { ModelConfig } from '../models/model-config.js';
import type { ModelClientOptions } from '../models/model-client.js';
import { UsageMeter } from '../models/usage.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { ModelConfigOrName } from '../types.js';

export interface ModelRun {
  inference: Inference;
  usage: UsageMeter;
}

/** What a session gives every model it calls: its key, the server's model env, sampling, the observer, the log. */
export function modelSourcesOf(scope: OperationScope): ModelClientOptions {
  return {
    sessionApiKey: scope.modelApiKey,
    env: scope.config.modelEnv,
    sampling: scope.settings.modelSampling,
    onModelCall: scope.settings.onModelCall,
    navigationPolicy: scope.config.navigationPolicy,
    log: (message, fields) => scope.log({ category: 'model', message: `${message} ${JSON.stringify(fields ?? {})}`, level: 2 }),
  };
}

/**
 * Runs `work` with a model. The model is resolved before any page work, so a missing key or an
 * unknown provider fails at once; usage is recorded even when the work fails.
 */
export async function withModel<T>(
  scope: OperationScope,
  model: ModelConfigOrName | undefined,
  what: string,
  work: (run: ModelRun) => Promise<T>,
): Promise<T> {
  const inference = createInference(model as ModelConfig | string | undefined, {
    ...modelSourcesOf(scope),
    sessionModelName: scope.settings.modelName,
    systemPrompt: scope.settings.systemPrompt,
    languageModel: scope.settings.languageModel,
  });
  const usage = new UsageMeter();
  try {
    return await work({ inference, usage });
  } finally {
    const total = usage.total;
    if (total.calls > 0) {
      scope.record.tokenUsage = {
        inputTokens: total.inputTokens,
        outputTokens: total.outputTokens,
        reasoningTokens: total.reasoningTokens,
        cachedInputTokens: total.cachedInputTokens,
        timeMs: total.inferenceTimeMs,
      };
      scope.log({
        category: 'model',
        message: `${what}: ${total.calls} call(s) to ${inference.identity}, ${total.inputTokens} in / ${total.outputTokens} out tokens, ${total.inferenceTimeMs} ms`,
        level: 2,
      });
    }
  }
}
