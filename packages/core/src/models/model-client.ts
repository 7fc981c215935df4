// One configured model, ready to answer structured questions: resolution, credentials and the SDK
// provider are settled once, when an operation starts, so a missing key fails before any work.
import { anthropicComputerUse } from './computer-use-anthropic.js';
import { googleComputerUse } from './computer-use-google.js';
import { openaiComputerUse } from './computer-use-openai.js';
import { computerUseOf, type ComputerConversation, type ComputerConversationStart } from './computer-use.js';
import { requestEndpoint, resolveCredentials, type KeySources } from './keys.js';
import { createProviderModel, type ModelSampling } from './language-model.js';
import { observeModelCalls, type OnModelCall } from './model-calls.js';
import type { ModelCallSite } from './model-error.js';
import { policyCheckedFetch } from '../network/endpoint-fetch.js';
import type { NavigationPolicy } from '../network/network-policy.js';
import { envPrefix, modelIdentity, type ModelTarget } from './resolve-model.js';
import { generateStructured, type ModelLog, type StructuredRequest } from './structured.js';
import { generateToolStep, type ToolStepReply, type ToolStepRequest } from './tool-step.js';

export interface ModelClient {
  /** provider/model (+ endpoint): what the cache keys on; never contains a credential. */
  readonly identity: string;
  generateObject(request: StructuredRequest): Promise<unknown>;
  /** One turn of a tool-calling conversation (the agent's loop). */
  toolStep(request: ToolStepRequest): Promise<ToolStepReply>;
  /** The provider's computer-use tool, for a model that has one (computerUseOf). */
  computerUse?(start: ComputerConversationStart): ComputerConversation;
}

export interface ModelClientOptions extends KeySources {
  log?: ModelLog;
  sampling?: ModelSampling;
  /** Sees every request made through the AI SDK and its answer (in-process callers only). */
  onModelCall?: OnModelCall;
  /** Decides where an endpoint the request names itself may be (the operator's endpoints are not checked). */
  navigationPolicy?: NavigationPolicy;
}

export function createModelClient(named: ModelTarget, sources: ModelClientOptions): ModelClient {
  const target = withEnvBaseURL(named, sources.env);
  const credentials = resolveCredentials(target, sources);
  const identity = modelIdentity(target);
  const send = sources.navigationPolicy && requestEndpoint(target.config) !== undefined ? policyCheckedFetch(sources.navigationPolicy) : fetch;
  const made = createProviderModel(target, credentials, sources.env, send);
  const site: ModelCallSite = { provider: target.providerName, modelId: target.modelId, secrets: made.secrets };
  const model = sources.onModelCall ? observeModelCalls(made.model, identity, site, sources.onModelCall) : made.model;
  const provider = { ...made, model, sampling: sources.sampling };
  const support = computerUseOf(target);
  const endpoint = {
    baseURL: target.baseURL,
    apiKey: credentials.type === 'apiKey' ? credentials.apiKey : undefined,
    headers: target.config.headers,
    modelId: target.modelId,
    fetch: send,
  };
  return {
    identity,
    generateObject: (request) => generateStructured(provider, site, request, sources.log),
    toolStep: (request) => generateToolStep(provider, site, request),
    ...(support && {
      computerUse: (start: ComputerConversationStart) => {
        if (support.protocol === 'anthropic') return anthropicComputerUse(provider, site, support.anthropicTool!, start);
        return support.protocol === 'openai' ? openaiComputerUse(endpoint, site, start) : googleComputerUse(endpoint, site, start);
      },
    }),
  };
}

/**
 * Endpoint overrides the server's environment may set (OPENAI_BASE_URL, OLLAMA_BASE_URL, …): the
 * operator's endpoints, which get the operator's keys. A request's own baseURL wins (and gets none).
 */
const ENV_BASE_URL: Partial<Record<ModelTarget['kind'], (target: ModelTarget) => string>> = {
  openai: () => 'OPENAI_BASE_URL',
  anthropic: () => 'ANTHROPIC_BASE_URL',
  google: () => 'GOOGLE_GENERATIVE_AI_BASE_URL',
  vertex: () => 'GOOGLE_VERTEX_BASE_URL',
  bedrock: () => 'BEDROCK_BASE_URL',
  'openai-compatible': (target) => `${envPrefix(target.providerName)}_BASE_URL`,
};

function withEnvBaseURL(target: ModelTarget, env: KeySources['env']): ModelTarget {
  if (requestEndpoint(target.config) !== undefined) return target;
  const name = ENV_BASE_URL[target.kind]?.(target);
  const baseURL = name ? env[name]?.trim() : undefined;
  return baseURL ? { ...target, baseURL } : target;
}
