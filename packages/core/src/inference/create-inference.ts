// Picks who answers an operation's questions: the built-in offline model for builtin/… names (and
// when nothing is configured), otherwise an LLM through the model layer.
import type { ModelConfig, ModelEnv } from '../models/model-config.js';
import { createModelClient } from '../models/model-client.js';
import type { ModelSampling } from '../models/language-model.js';
import { resolveModel } from '../models/resolve-model.js';
import type { ModelLog } from '../models/structured.js';
import { createBuiltinInference } from './builtin/builtin-inference.js';
import { createLlmInference } from './llm.js';
import type { Inference } from './types.js';

export interface InferenceContext {
  /** The session's model name (from session start), used when the call names none. */
  sessionModelName?: string;
  /** The session's key (x-model-api-key). */
  sessionApiKey?: string;
  /** Server environment, read once at the edge. */
  env: ModelEnv;
  /** The session's custom system prompt. */
  systemPrompt?: string;
  /** Debug-level log sink; never receives secrets. */
  log?: ModelLog;
  /** The in-process caller's temperature and output token limit, if any. */
  sampling?: ModelSampling;
}

/** Throws missing_model_key / validation_error up front, before any page work. */
export function createInference(model: ModelConfig | string | undefined, ctx: InferenceContext): Inference {
  const target = resolveModel(model, ctx.sessionModelName);
  return target.kind === 'builtin'
    ? createBuiltinInference(target.modelId)
    : createLlmInference(createModelClient(target, { sessionApiKey: ctx.sessionApiKey, env: ctx.env, log: ctx.log, sampling: ctx.sampling }), ctx.systemPrompt);
}
