// Picks who answers an operation's questions: the built-in offline model for builtin/… names (and
// when nothing is configured), otherwise an LLM through the model layer.
import type { ModelConfig, ModelEnv } from '../models/model-config.js';
import type { NavigationPolicy } from '../network/network-policy.js';
import type { OnModelCall } from '../models/model-calls.js';
import { createModelClient } from '../models/model-client.js';
import type { LanguageModelV3 } from '../models/model-config.js';
import type { ModelSampling } from '../models/language-model.js';
import { resolveCallModel } from '../models/resolve-model.js';
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
  /** The in-process caller's model object: the session's model, used when the call names none (it wins over sessionModelName). */
  languageModel?: LanguageModelV3;
  /** The in-process caller's observer of each model request and answer. */
  onModelCall?: OnModelCall;
  /** Where an endpoint the call names itself may be. */
  navigationPolicy?: NavigationPolicy;
}

/** Throws missing_model_key / validation_error up front, before any page work. */
export function createInference(model: ModelConfig | string | undefined, ctx: InferenceContext): Inference {
  const target = resolveCallModel(model, { modelName: ctx.sessionModelName, languageModel: ctx.languageModel });
  if (target.kind === 'builtin') return createBuiltinInference(target.modelId);
  const { sessionApiKey, env, log, sampling, onModelCall, navigationPolicy } = ctx;
  return createLlmInference(createModelClient(target, { sessionApiKey, env, log, sampling, onModelCall, navigationPolicy }), ctx.systemPrompt);
}
