// Turns a model name or ModelConfig into "which provider, which model, which endpoint" — no keys,
// no SDK objects (but the one an in-process caller handed over as the session's model, passed
// through) — so resolution rules live in one place and are testable on their own.
import { DeckhandError, isDeckhandError } from '../errors.js';
import type { LanguageModelV3, LegacyProvider, ModelConfig } from './model-config.js';

export type ProviderKind =
  | 'openai'
  | 'openai-compatible'
  | 'anthropic'
  | 'google'
  | 'azure'
  | 'vertex'
  | 'bedrock'
  | 'builtin'
  /** An AI SDK model object given in-process (the client's llmClient), never named on the wire. */
  | 'in-process';

export interface ModelTarget {
  kind: ProviderKind;
  /** The provider as the user named it ("ollama" for ollama/llama3.2); used in messages and env names. */
  providerName: string;
  /** The model id the provider expects (prefix removed). */
  modelId: string;
  /** Endpoint override, when one was given. */
  baseURL?: string;
  /** The config object this target came from (a bare name becomes `{modelName}`). */
  config: ModelConfig;
  /** Kind 'in-process' only: the model object itself. */
  languageModel?: LanguageModelV3;
}

/** What a session answers with when a call names no model: its in-process model object, else its model name. */
export interface SessionModel {
  modelName?: string;
  languageModel?: LanguageModelV3;
}

/** The model of a call: its own when it names one, else the session's. */
export function resolveCallModel(model: ModelConfig | string | undefined, session: SessionModel): ModelTarget {
  if (model === undefined && session.languageModel) return inProcessTarget(session.languageModel);
  return resolveModel(model, session.modelName);
}

/** An in-process model object as a target: identified by its provider and model id (no endpoint: the object keeps it private). */
export function inProcessTarget(languageModel: LanguageModelV3): ModelTarget {
  const { provider, modelId } = languageModel;
  return { kind: 'in-process', providerName: provider, modelId, config: { modelName: `${provider}/${modelId}` }, languageModel };
}

const BUILTIN_MODEL = 'offline';

const AZURE_RESOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/** The model used when neither the call nor the session names one. */
export const DEFAULT_MODEL = `builtin/${BUILTIN_MODEL}`;

/** The name the published Stagehand client sends to let the API pick the model (it refuses builtin/… itself). */
const AUTO_MODEL = 'auto';

const PREFIXED: Record<string, ProviderKind> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'google',
  gemini: 'google',
  azure: 'azure',
  vertex: 'vertex',
  bedrock: 'bedrock',
  builtin: 'builtin',
};

/** The legacy `provider` field (see docs/decisions.md); a prefixed modelName wins over it. */
const LEGACY_PROVIDER: Record<LegacyProvider, ProviderKind> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'google',
  microsoft: 'azure',
  bedrock: 'bedrock',
};

/** Local OpenAI-compatible servers that have a well-known address, so a bare prefix is enough. */
const KNOWN_LOCAL_ENDPOINTS: Record<string, string> = {
  ollama: 'http://127.0.0.1:11434/v1',
  lmstudio: 'http://127.0.0.1:1234/v1',
};

export function resolveModel(model: ModelConfig | string | undefined, sessionModelName?: string): ModelTarget {
  const config: ModelConfig =
    typeof model === 'object' ? model : { modelName: model ?? (sessionModelName || DEFAULT_MODEL) };
  const name = config.modelName.trim();
  if (!name) throw new DeckhandError('validation_error', 'model.modelName must not be empty');
  // The published Stagehand client's "let the API choose the model": the one that needs nothing.
  if (name.toLowerCase() === AUTO_MODEL) return resolveModel(DEFAULT_MODEL);
  const baseURL = config.baseURL;

  if (config.provider === 'vertex') {
    const endpoint = config.providerOptions.vertex.baseURL ?? baseURL;
    return { kind: 'vertex', providerName: 'vertex', modelId: stripPrefix(name, 'vertex'), baseURL: endpoint, config };
  }
  if (config.provider === 'azure') {
    const { baseURL: azureURL, resourceName } = config.providerOptions.azure;
    // The SDK pastes it into https://<name>.openai.azure.com: anything but a resource name could name another host (and get AZURE_API_KEY).
    if (resourceName !== undefined && !AZURE_RESOURCE_NAME.test(resourceName)) {
      throw new DeckhandError('validation_error', 'providerOptions.azure.resourceName must be an Azure resource name (letters, digits and hyphens)');
    }
    const endpoint = azureURL ?? baseURL ?? (resourceName && `https://${resourceName}.openai.azure.com/openai`);
    return { kind: 'azure', providerName: 'azure', modelId: stripPrefix(name, 'azure'), baseURL: endpoint || undefined, config };
  }

  const slash = name.indexOf('/');
  if (slash > 0) {
    const prefix = name.slice(0, slash).toLowerCase();
    const modelId = name.slice(slash + 1);
    const kind = PREFIXED[prefix];
    if (kind === 'builtin' && modelId !== BUILTIN_MODEL) {
      throw new DeckhandError('validation_error', `The built-in model is "builtin/${BUILTIN_MODEL}"; there is no "${name}"`);
    }
    if (kind) return { kind, providerName: prefix, modelId, baseURL, config };
    const endpoint = baseURL ?? KNOWN_LOCAL_ENDPOINTS[prefix];
    if (endpoint) return { kind: 'openai-compatible', providerName: prefix, modelId, baseURL: endpoint, config };
    throw new DeckhandError(
      'validation_error',
      `Unknown model provider "${prefix}" in "${name}": use one of ${Object.keys(PREFIXED).join(', ')}, or give a baseURL for an OpenAI-compatible endpoint`,
    );
  }

  if (name.toLowerCase() === 'builtin') throw new DeckhandError('validation_error', `The built-in model is "${DEFAULT_MODEL}"; a bare "builtin" names none`);
  const legacy = config.provider ? LEGACY_PROVIDER[config.provider] : undefined;
  const kind = legacy ?? inferFromLegacyName(name) ?? (baseURL ? 'openai-compatible' : undefined);
  if (!kind) {
    throw new DeckhandError(
      'validation_error',
      `Cannot tell the provider of model "${name}": use a provider-prefixed name such as "openai/${name}" or give a baseURL`,
    );
  }
  return { kind, providerName: kind, modelId: name, baseURL, config };
}

/** The provider part of a model identity when it is one Deckhand knows by name, else `other` (any prefix with a baseURL): a bounded label. */
export function knownProviderOf(identity: string): string {
  const prefix = identity.slice(0, Math.max(0, identity.indexOf('/'))).toLowerCase();
  return Object.hasOwn(PREFIXED, prefix) || Object.hasOwn(KNOWN_LOCAL_ENDPOINTS, prefix) ? prefix : 'other';
}

/** The forms of a model name Deckhand resolves, for the message about one it cannot. */
export const ACCEPTED_MODEL_NAMES = `"<provider>/<model>" with provider ${[...Object.keys(PREFIXED).filter((p) => p !== 'builtin'), ...Object.keys(KNOWN_LOCAL_ENDPOINTS)].join(', ')} (e.g. "openai/gpt-4.1-mini", "ollama/llama3.2"); "${DEFAULT_MODEL}" (or "${AUTO_MODEL}"); a legacy name starting gpt-, o1, o3, o4, claude- or gemini-; any other "<prefix>/<model>" only with options.model.baseURL on each call`;

/**
 * A session's model name, checked at start: a name Deckhand cannot resolve is a mistake in the
 * start request (400, listing the accepted forms), not a surprise at the session's first act.
 */
export function checkModelName(name: string): void {
  try {
    resolveModel(name);
  } catch (error) {
    if (!isDeckhandError(error)) throw error;
    const message = `modelName "${name}" cannot be used: ${error.message}. Accepted: ${ACCEPTED_MODEL_NAMES}`;
    throw new DeckhandError('validation_error', message, [{ path: 'body.modelName', message }]);
  }
}

/** Unprefixed names older clients send: gpt-4.1-nano means OpenAI, and so on. */
function inferFromLegacyName(name: string): ProviderKind | undefined {
  if (/^(gpt-|chatgpt-|o[1345](-|$))/i.test(name)) return 'openai';
  if (/^claude-/i.test(name)) return 'anthropic';
  if (/^gemini-/i.test(name)) return 'google';
  return undefined;
}

function stripPrefix(name: string, prefix: string): string {
  return name.startsWith(`${prefix}/`) ? name.slice(prefix.length + 1) : name;
}

/** The prefix of a provider's server env names: "ollama" → OLLAMA (OLLAMA_API_KEY, OLLAMA_BASE_URL). */
export function envPrefix(providerName: string): string {
  return providerName.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** What identifies a model for caching and logs: provider/model plus endpoint, never a credential. */
export function modelIdentity(target: ModelTarget): string {
  const id = `${target.providerName}/${target.modelId}`;
  return target.baseURL ? `${id}@${target.baseURL}` : id;
}
