// What every model-driven operation shares: which model answers (call, then session, then the
// built-in default), with which key, how its usage reaches the history record, and its deadline.
import type { CoreConfig } from '../config.js';
import { createInference, type Inference } from '../inference/index.js';
import type { ModelConfig } from '../models/model-config.js';
import { UsageMeter } from '../models/usage.js';
import { Deadline } from '../session/deadline.js';
import type { OperationScope } from '../session/operation-scope.js';
import type { ModelConfigOrName } from '../types.js';

export interface ModelDeps {
  config: CoreConfig;
  /** This request's x-model-api-key, else the session's; a per-call model.apiKey still wins. */
  apiKey?: string;
}

export interface ModelRun {
  inference: Inference;
  usage: UsageMeter;
  /** Aborts on the operation's timeout or when the caller goes away; pass it to every model and browser wait. */
  signal: AbortSignal;
  /** Milliseconds left before the operation's timeout. */
  remainingMs(): number;
}

/**
 * Runs `work` with a model, bounded by `timeoutMs` (the session's default when undefined). The model
 * is resolved before any page work, so a missing key or an unknown provider fails at once; usage is
 * recorded even when the work fails.
 */
export async function withModel<T>(
  scope: OperationScope,
  model: ModelConfigOrName | undefined,
  timeoutMs: number | undefined,
  what: string,
  deps: ModelDeps,
  work: (run: ModelRun) => Promise<T>,
): Promise<T> {
  const inference = createInference(model as ModelConfig | string | undefined, {
    sessionModelName: scope.settings.modelName,
    sessionApiKey: deps.apiKey,
    env: deps.config.modelEnv,
    systemPrompt: scope.settings.systemPrompt,
    log: (message, fields) => scope.log({ category: 'model', message: `${message} ${JSON.stringify(fields ?? {})}`, level: 2 }),
  });
  const usage = new UsageMeter();
  const deadline = new Deadline(scope.signal, timeoutMs ?? scope.settings.defaultTimeoutMs, what);
  const run: ModelRun = {
    inference,
    usage,
    signal: deadline.signal,
    remainingMs: () => deadline.remaining(Infinity),
  };
  try {
    return await deadline.race(work(run));
  } finally {
    deadline.dispose();
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
