// Which credential a model call uses. Order: the call's own apiKey / auth object, then the session's
// key (x-model-api-key), then the server's environment (passed in; never read from process.env here).
// The server's keys go only where its operator said: an endpoint the request names itself (a baseURL
// in its model config) gets the client's own key, or none, never one from the server's environment.
import { readFileSync, statSync } from 'node:fs';
import { DeckhandError } from '../errors.js';
import type { GoogleServiceAccountAuth, GoogleServiceAccountCredentials, ModelConfig, ModelEnv } from './model-config.js';
import { envPrefix, type ModelTarget, type ProviderKind } from './resolve-model.js';

export type Credentials =
  | { type: 'apiKey'; apiKey: string }
  /** An endpoint that needs no key (a local OpenAI-compatible server, the built-in model). */
  | { type: 'none' }
  | { type: 'azureEntraId'; token: string }
  | { type: 'googleServiceAccount'; auth: GoogleServiceAccountAuth }
  | { type: 'googleKeyFile'; keyFilename: string }
  | { type: 'aws'; accessKeyId: string; secretAccessKey: string; sessionToken?: string };

export interface KeySources {
  sessionApiKey?: string;
  env: ModelEnv;
}

export function resolveCredentials(target: ModelTarget, { sessionApiKey, env }: KeySources): Credentials {
  const { config, kind } = target;
  // The built-in model needs none; an in-process model object carries its own.
  if (kind === 'builtin' || kind === 'in-process') return { type: 'none' };
  if ('auth' in config && config.auth) {
    if (config.auth.type === 'azureEntraId') return { type: 'azureEntraId', token: config.auth.token };
    return { type: 'googleServiceAccount', auth: config.auth };
  }
  const requestsOwn = requestEndpoint(config) !== undefined;
  const apiKey = present('apiKey' in config ? config.apiKey : undefined) ?? present(sessionApiKey) ?? (requestsOwn ? undefined : envKey(target, env));
  if (apiKey) return { type: 'apiKey', apiKey };

  const fromEnv = requestsOwn ? undefined : ambientCredentials(kind, env);
  if (fromEnv) return fromEnv;
  // A custom endpoint (Ollama, vLLM, a gateway on the LAN) may well need no key at all.
  if (kind === 'openai-compatible' || (kind === 'openai' && target.baseURL)) return { type: 'none' };

  if (requestsOwn) {
    throw new DeckhandError(
      'missing_model_key',
      `No API key for provider "${target.providerName}" at the baseURL this request names: pass options.model.apiKey or the x-model-api-key header (the server's own keys go only to the endpoints its operator configured)`,
    );
  }
  throw new DeckhandError(
    'missing_model_key',
    `No API key for provider "${target.providerName}": pass options.model.apiKey, the x-model-api-key header, or set ${[...envKeyNames(target), ...(AMBIENT_ENV[kind] ?? [])].join(' or ')} on the server`,
  );
}

/** The endpoint a request's model config names itself (its baseURL, or Azure's or Vertex's), if any. */
export function requestEndpoint(config: ModelConfig): string | undefined {
  const options = (config as { providerOptions?: { azure?: { baseURL?: string }; vertex?: { baseURL?: string } } }).providerOptions;
  return present(config.baseURL) ?? present(options?.azure?.baseURL) ?? present(options?.vertex?.baseURL);
}

function envKeyNames(target: ModelTarget): string[] {
  const names: Record<ProviderKind, string[]> = {
    openai: ['OPENAI_API_KEY'],
    anthropic: ['ANTHROPIC_API_KEY'],
    google: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
    azure: ['AZURE_API_KEY'],
    vertex: ['GOOGLE_VERTEX_API_KEY'],
    bedrock: ['AWS_BEARER_TOKEN_BEDROCK'],
    // openrouter/… reads OPENROUTER_API_KEY, the convention those gateways document.
    'openai-compatible': [`${envPrefix(target.providerName)}_API_KEY`],
    builtin: [],
    'in-process': [],
  };
  return names[target.kind];
}

function envKey(target: ModelTarget, env: ModelEnv): string | undefined {
  return envKeyNames(target).map((name) => present(env[name])).find(Boolean);
}

const AMBIENT_ENV: Partial<Record<ProviderKind, string[]>> = {
  vertex: ['GOOGLE_APPLICATION_CREDENTIALS'],
  bedrock: ['AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY'],
};

/** Credentials that are not a single key: a service-account file for Vertex, an AWS key pair for Bedrock. */
function ambientCredentials(kind: ProviderKind, env: ModelEnv): Credentials | undefined {
  if (kind === 'vertex') {
    const keyFilename = present(env.GOOGLE_APPLICATION_CREDENTIALS);
    if (!keyFilename) return undefined;
    const serviceAccount = readServiceAccount(keyFilename);
    // A service-account file goes the same way as an auth object (its token_uri honoured, its key scrubbed);
    // any other ADC file (a gcloud user login, workload identity) is left to google-auth-library.
    return serviceAccount
      ? { type: 'googleServiceAccount', auth: { type: 'googleServiceAccount', credentials: serviceAccount } }
      : { type: 'googleKeyFile', keyFilename };
  }
  if (kind === 'bedrock') {
    const accessKeyId = present(env.AWS_ACCESS_KEY_ID);
    const secretAccessKey = present(env.AWS_SECRET_ACCESS_KEY);
    if (!accessKeyId || !secretAccessKey) return undefined;
    return { type: 'aws', accessKeyId, secretAccessKey, sessionToken: present(env.AWS_SESSION_TOKEN) };
  }
  return undefined;
}

/** Parsed key files by path, with the mtime they were read at: a changed file is read again. Failures are not kept. */
const serviceAccounts = new Map<string, { mtimeMs: number; serviceAccount: GoogleServiceAccountCredentials | undefined }>();

function readServiceAccount(keyFilename: string): GoogleServiceAccountCredentials | undefined {
  let mtimeMs: number;
  let parsed: unknown;
  try {
    mtimeMs = statSync(keyFilename).mtimeMs;
    const cached = serviceAccounts.get(keyFilename);
    if (cached?.mtimeMs === mtimeMs) return cached.serviceAccount;
    parsed = JSON.parse(readFileSync(keyFilename, 'utf8'));
  } catch {
    serviceAccounts.delete(keyFilename);
    throw new DeckhandError('missing_model_key', 'GOOGLE_APPLICATION_CREDENTIALS names a file that cannot be read as JSON');
  }
  const file = parsed as Partial<GoogleServiceAccountCredentials>;
  const isServiceAccount = file.type === 'service_account' && typeof file.private_key === 'string' && typeof file.client_email === 'string';
  const serviceAccount = isServiceAccount ? (file as GoogleServiceAccountCredentials) : undefined;
  serviceAccounts.set(keyFilename, { mtimeMs, serviceAccount });
  return serviceAccount;
}

/** Every secret string in a credential, so error messages and logs can be scrubbed of them. */
export function credentialSecrets(credentials: Credentials): string[] {
  switch (credentials.type) {
    case 'apiKey':
      return [credentials.apiKey];
    case 'azureEntraId':
      return [credentials.token];
    case 'googleServiceAccount':
      return [credentials.auth.credentials.private_key];
    case 'aws':
      return [credentials.secretAccessKey, ...(credentials.sessionToken ? [credentials.sessionToken] : [])];
    default:
      return [];
  }
}

/** An empty header or env value counts as absent. */
function present(value: string | undefined): string | undefined {
  return value && value.trim() ? value : undefined;
}
