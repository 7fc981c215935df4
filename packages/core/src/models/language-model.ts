// Maps a resolved model and its credentials onto a Vercel AI SDK provider. Every setting is passed
// explicitly (never left for the SDK to read from process.env) so configuration stays at the edge.
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createVertex } from '@ai-sdk/google-vertex';
import { createOpenAI } from '@ai-sdk/openai';
import { DeckhandError } from '../errors.js';
import { credentialSecrets, type Credentials } from './keys.js';
import type { AzureModelConfig, LanguageModelV3, ModelEnv, VertexModelConfig } from './model-config.js';
import type { ModelTarget } from './resolve-model.js';

/** Sampling settings of an in-process caller (the client's modelClientOptions); the wire has no place for them. */
export interface ModelSampling {
  temperature?: number;
  maxOutputTokens?: number;
}

export interface ProviderModel {
  model: LanguageModelV3;
  /** Passed to every call of this model, when set. */
  sampling?: ModelSampling;
  /** False for arbitrary OpenAI-compatible endpoints: ask for JSON in the prompt instead of a response format. */
  nativeStructuredOutput: boolean;
  /** False where a tool result can only be text (Chat Completions): a screenshot then follows as a user message. */
  imagesInToolResults: boolean;
  /** Strings that must never appear in a log line or an error message. */
  secrets: string[];
}

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** `fetch`: what the provider sends with (the policy-checked one for an endpoint the request named); the global one by default. */
export function createProviderModel(target: ModelTarget, credentials: Credentials, env: ModelEnv, fetch: typeof globalThis.fetch = globalThis.fetch): ProviderModel {
  const { config, modelId } = target;
  const headers = config.headers;
  const apiKey = credentials.type === 'apiKey' ? credentials.apiKey : undefined;
  const secrets = [...credentialSecrets(credentials), ...headerValues(headers), ...headerValues(providerOptionHeaders(target))];
  const make = (model: LanguageModelV3, nativeStructuredOutput = true, imagesInToolResults = true): ProviderModel => ({
    model,
    nativeStructuredOutput,
    imagesInToolResults,
    secrets,
  });

  switch (target.kind) {
    case 'openai':
    case 'openai-compatible': {
      const openai = createOpenAI({
        name: target.providerName,
        apiKey: apiKey ?? '',
        baseURL: target.baseURL,
        headers,
        fetch: apiKey ? fetch : withoutAuthorization(fetch),
      });
      // OpenAI itself defaults to Responses; other OpenAI-compatible servers mostly speak only Chat Completions.
      const format = 'openaiEndpointFormat' in config ? config.openaiEndpointFormat : undefined;
      const chat = format === 'chat' || (target.kind === 'openai-compatible' && format !== 'responses');
      return make(chat ? openai.chat(modelId) : openai.responses(modelId), target.kind === 'openai', !chat);
    }
    case 'anthropic':
      return make(createAnthropic({ apiKey, baseURL: target.baseURL, headers, fetch })(modelId));
    case 'google':
      return make(createGoogleGenerativeAI({ apiKey, baseURL: target.baseURL, headers, fetch })(modelId));
    case 'azure': {
      const { model, chat } = azureModel(target, credentials, apiKey, env, fetch);
      return make(model, true, !chat);
    }
    case 'vertex':
      return make(vertexModel(target, credentials, env, fetch));
    case 'bedrock': {
      const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
      const auth =
        credentials.type === 'aws'
          ? // apiKey '' keeps the SDK from preferring AWS_BEARER_TOKEN_BEDROCK in process.env over this key pair.
            { apiKey: '', accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken }
          : { apiKey };
      return make(createAmazonBedrock({ region, baseURL: target.baseURL, headers, fetch, ...auth })(modelId));
    }
    case 'in-process':
      if (!target.languageModel) throw new DeckhandError('internal_error', 'an in-process model target without its model');
      return inProcessModel(target.languageModel);
    case 'builtin':
      throw new DeckhandError('internal_error', 'the built-in model has no provider model');
  }
}

/**
 * An in-process caller's own model object (the client's llmClient), used as it is: its key and
 * endpoint are its provider's business, so there is no secret here to keep out of messages.
 * An OpenAI-compatible endpoint's model says whether it takes a JSON Schema response format
 * (`supportsStructuredOutputs`, false unless its provider was told); without one the schema goes in
 * the prompt. A Chat Completions model (provider `….chat`) takes text-only tool results.
 */
export function inProcessModel(model: LanguageModelV3): ProviderModel {
  const structured = (model as { supportsStructuredOutputs?: unknown }).supportsStructuredOutputs;
  return { model, nativeStructuredOutput: structured !== false, imagesInToolResults: !model.provider.endsWith('.chat'), secrets: [] };
}

/** Headers set under providerOptions.azure / .vertex: sent like config.headers, so kept as secret as they are. */
function providerOptionHeaders(target: ModelTarget): Record<string, string> | undefined {
  if (target.kind === 'azure') return (target.config as Partial<AzureModelConfig>).providerOptions?.azure?.headers;
  if (target.kind === 'vertex') return (target.config as Partial<VertexModelConfig>).providerOptions?.vertex?.headers;
  return undefined;
}

function azureModel(target: ModelTarget, credentials: Credentials, apiKey: string | undefined, env: ModelEnv, fetch: typeof globalThis.fetch): { model: LanguageModelV3; chat: boolean } {
  const config = target.config as Partial<AzureModelConfig>;
  const azure = config.providerOptions?.azure ?? {};
  const resourceName = azure.resourceName ?? env.AZURE_RESOURCE_NAME;
  const baseURL = azure.baseURL ?? config.baseURL;
  if (!resourceName && !baseURL) {
    throw new DeckhandError(
      'validation_error',
      'Azure needs providerOptions.azure.resourceName or a baseURL (or AZURE_RESOURCE_NAME on the server)',
    );
  }
  const token = credentials.type === 'azureEntraId' ? credentials.token : undefined;
  const provider = createAzure({
    resourceName,
    baseURL,
    apiVersion: azure.apiVersion,
    useDeploymentBasedUrls: azure.useDeploymentBasedUrls,
    headers: { ...config.headers, ...azure.headers },
    fetch,
    ...(token ? { tokenProvider: async () => token } : { apiKey }),
  });
  // Deployment URLs (/deployments/{name}/…) are the classic API, which serves Chat Completions only.
  const chat = azure.useDeploymentBasedUrls === true;
  return { model: chat ? provider.chat(target.modelId) : provider(target.modelId), chat };
}

function vertexModel(target: ModelTarget, credentials: Credentials, env: ModelEnv, fetch: typeof globalThis.fetch): LanguageModelV3 {
  const config = target.config as Partial<VertexModelConfig>;
  const vertexOptions = config.providerOptions?.vertex;
  const project = vertexOptions?.project ?? env.GOOGLE_VERTEX_PROJECT;
  const location = vertexOptions?.location ?? env.GOOGLE_VERTEX_LOCATION;
  const headers = { ...config.headers, ...vertexOptions?.headers };
  // apiKey '' (not undefined) keeps the SDK from falling back to GOOGLE_VERTEX_API_KEY in process.env.
  const common = { project, location, baseURL: target.baseURL, headers, fetch, apiKey: '' };
  const model = (provider: ReturnType<typeof createVertex>): LanguageModelV3 => provider(target.modelId);

  if (credentials.type === 'apiKey') return model(createVertex({ ...common, apiKey: credentials.apiKey }));
  if (!project || !location) {
    throw new DeckhandError(
      'validation_error',
      'Vertex needs providerOptions.vertex.project and .location (or GOOGLE_VERTEX_PROJECT / GOOGLE_VERTEX_LOCATION on the server)',
    );
  }
  if (credentials.type === 'googleKeyFile') {
    return model(createVertex({ ...common, googleAuthOptions: { keyFilename: credentials.keyFilename } }));
  }
  if (credentials.type !== 'googleServiceAccount') {
    throw new DeckhandError('missing_model_key', 'Vertex needs a googleServiceAccount auth object or an API key');
  }
  const { credentials: serviceAccount, scopes, projectId, universeDomain } = credentials.auth;
  return model(
    createVertex({
      ...common,
      googleAuthOptions: {
        credentials: serviceAccount,
        scopes,
        projectId: projectId ?? project,
        universeDomain,
        clientOptions: { transporterOptions: { fetchImplementation: tokenEndpointFetch(serviceAccount.token_uri) } },
      },
    }),
  );
}

/**
 * google-auth-library always posts the service-account JWT to Google's token URL and ignores the
 * credentials' own token_uri; honour it, so private deployments (and loopback tests) can point it elsewhere.
 */
function tokenEndpointFetch(tokenUri: string | undefined): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return fetch(tokenUri && url === GOOGLE_TOKEN_URL ? tokenUri : input, init);
  };
}

/** With no key the OpenAI SDK would still send "Authorization: Bearer " — drop it for keyless endpoints. */
function withoutAuthorization(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('authorization');
    return fetch(input, { ...init, headers });
  };
}

function headerValues(headers: Record<string, string> | undefined): string[] {
  return Object.values(headers ?? {}).filter((v) => v.length >= 8);
}
