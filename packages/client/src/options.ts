// The client's initialization options (the spec's "Client initialization options" table), their
// TypeScript defaults, and the one check that turns a wrong combination into an error naming the option.
import type { LogLine, components } from '@deckhand/contract';
import type { LanguageModelV3 } from '@deckhand/core';
import { distance } from 'fastest-levenshtein';

type Schemas = components['schemas'];

export type DeckhandEnv = 'BROWSERBASE' | 'LOCAL';

export interface ModelClientOptions {
  /** Key for the model provider; sent as `x-model-api-key`, never logged. */
  apiKey?: string;
  baseURL?: string;
  /** Python-style spelling of baseURL. */
  api_base?: string;
  /** Sampling temperature of every model call made in this process (useAPI: false, env LOCAL); the API has no place for it. */
  temperature?: number;
  /** Output token limit of every model call made in this process (useAPI: false, env LOCAL); the API has no place for it. */
  maxTokens?: number;
  [key: string]: unknown;
}

export interface DeckhandOptions {
  /** Where the browser runs: the Deckhand server ('BROWSERBASE') or this process ('LOCAL'). Required. */
  env: DeckhandEnv;
  /** API key of the server (x-bb-api-key); else env DECKHAND_API_KEY or BROWSERBASE_API_KEY. Needed only when the server has keys configured (it answers 401 then). */
  apiKey?: string;
  /** Sent as x-bb-project-id; the server derives the project from the key, so it is optional here. */
  projectId?: string;
  /** Resume this existing session instead of starting one. */
  browserbaseSessionID?: string;
  browserbaseSessionCreateParams?: Schemas['BrowserbaseSessionCreateParams'];
  waitForCaptchaSolves?: boolean;
  /** Cookies and local storage to start with, as `storageState()` answered in an earlier session (a saved login). */
  storageState?: Schemas['StorageState'];
  /** Launch options of the browser: the local one ('LOCAL') or the server's ('BROWSERBASE'). */
  localBrowserLaunchOptions?: Schemas['LaunchOptions'];
  /** Default model; `builtin/offline` when absent. */
  modelName?: string;
  /** Accepted for compatibility; the provider is read from the model name's prefix. */
  llmProvider?: unknown;
  /**
   * An AI SDK 6 language model object (e.g. `createOpenAI({ apiKey })('gpt-4.1-mini')`), called from
   * this process as the session's model; needs useAPI: false or env 'LOCAL', and excludes modelName.
   */
  llmClient?: LanguageModelV3;
  modelClientOptions?: ModelClientOptions;
  /** Keep act and agent cache entries in `cacheDir` (default true). */
  enableCaching?: boolean;
  /** Where cache entries are kept: the in-process core's act cache, and agent entries under `agent/`; `.deckhand/cache` by default. */
  cacheDir?: string;
  verbose?: 0 | 1 | 2;
  /** Receives every log line at or below `verbose` (instead of the console). */
  logger?: (line: LogLine) => void;
  /** Accepted for compatibility; this client never uses pino. */
  disablePino?: boolean;
  /** Write each operation's request and answer (secrets masked) to a JSON-lines file under `inferenceLogDir`. */
  logInferenceToFile?: boolean;
  /** Directory of the inference log files; `./inference_summary` by default. */
  inferenceLogDir?: string;
  domSettleTimeoutMs?: number;
  selfHeal?: boolean;
  systemPrompt?: string;
  /** Offload method calls to the HTTP API (true), or run the core in this process over the session's CDP URL. */
  useAPI?: boolean;
  experimental?: boolean;
  /** Root URL of the Deckhand server; else env DECKHAND_API_URL, STAGEHAND_API_URL, then http://127.0.0.1:3000. */
  baseURL?: string;
  /** Stream operations as server-sent events (default true). */
  streaming?: boolean;
  /** Stagehand's act timeout, sent at session start. */
  actTimeoutMs?: number;
}

/** The options after defaults and environment fallbacks, as the modes use them. */
export interface ResolvedOptions extends Omit<DeckhandOptions, 'verbose' | 'enableCaching' | 'cacheDir' | 'domSettleTimeoutMs' | 'useAPI' | 'modelName' | 'experimental' | 'waitForCaptchaSolves' | 'disablePino' | 'logInferenceToFile' | 'streaming'> {
  verbose: 0 | 1 | 2;
  enableCaching: boolean;
  cacheDir: string;
  domSettleTimeoutMs: number;
  useAPI: boolean;
  modelName: string;
  experimental: boolean;
  waitForCaptchaSolves: boolean;
  disablePino: boolean;
  logInferenceToFile: boolean;
  inferenceLogDir: string;
  streaming: boolean;
  baseURL: string;
  modelBaseURL?: string;
}

export const DEFAULTS = {
  verbose: 1,
  enableCaching: true,
  cacheDir: '.deckhand/cache',
  domSettleTimeoutMs: 10_000,
  useAPI: true,
  modelName: 'builtin/offline',
  experimental: false,
  waitForCaptchaSolves: false,
  disablePino: false,
  logInferenceToFile: false,
  inferenceLogDir: 'inference_summary',
  streaming: true,
  baseURL: 'http://127.0.0.1:3000',
} as const;

/** A wrong option, found at construction. */
export class DeckhandOptionsError extends Error {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(`${option}: ${message}`);
    this.name = 'DeckhandOptionsError';
  }
}

/** Every option's name (the type makes the list complete), so a misspelled one is an error, not ignored. */
const OPTION_NAMES: Record<keyof DeckhandOptions, true> = {
  env: true, apiKey: true, projectId: true, browserbaseSessionID: true, browserbaseSessionCreateParams: true, waitForCaptchaSolves: true,
  localBrowserLaunchOptions: true, modelName: true, llmProvider: true, llmClient: true, modelClientOptions: true, enableCaching: true,
  cacheDir: true, verbose: true, logger: true, disablePino: true, logInferenceToFile: true, inferenceLogDir: true, domSettleTimeoutMs: true,
  selfHeal: true, systemPrompt: true, useAPI: true, experimental: true, baseURL: true, streaming: true, actTimeoutMs: true,
  storageState: true,
};

/** Names other clients give the same setting (the Python client's, Stagehand v3's `model`), and where it goes here. */
const SPELLED_ELSEWHERE: Record<string, string> = {
  modelApiKey: 'modelClientOptions.apiKey',
  model: "modelName (and the model's key as modelClientOptions.apiKey)",
  api_url: 'baseURL',
  apiUrl: 'baseURL',
};

/** The option a misspelled name meant: the same letters in another case, else the nearest within a few edits. */
function meant(name: string): string | undefined {
  if (Object.hasOwn(SPELLED_ELSEWHERE, name)) return SPELLED_ELSEWHERE[name];
  const names = Object.keys(OPTION_NAMES);
  const lower = name.toLowerCase();
  const sameLetters = names.find((option) => option.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  const [nearest] = names.map((option) => ({ option, edits: distance(lower, option.toLowerCase()) })).sort((a, b) => a.edits - b.edits);
  return nearest && nearest.edits <= Math.max(2, Math.floor(name.length / 3)) ? nearest.option : undefined;
}

function checkOptionNames(options: object): void {
  for (const name of Object.keys(options)) {
    if (Object.hasOwn(OPTION_NAMES, name)) continue;
    const suggestion = meant(name);
    throw new DeckhandOptionsError(name, suggestion ? `not an option of Deckhand; did you mean ${suggestion}?` : `not an option of Deckhand (options: ${Object.keys(OPTION_NAMES).join(', ')})`);
  }
}

/** The API root: the server's origin and path prefix, without a trailing `/v1` (the bindings add it). */
function apiRoot(url: string, option: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DeckhandOptionsError(option, `not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new DeckhandOptionsError(option, 'must be an http(s) URL');
  return parsed.href.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A key goes in an HTTP header, which holds printable ASCII only (fetch refuses anything else with a bare TypeError). */
function checkKey(key: unknown, option: string): void {
  if (key !== undefined && !(typeof key === 'string' && /^[\x20-\x7e]+$/.test(key))) {
    throw new DeckhandOptionsError(option, 'must be the key itself: printable ASCII, as an HTTP header carries it (is it still a placeholder?)');
  }
}

export function resolveOptions(options: DeckhandOptions, env: Record<string, string | undefined>): ResolvedOptions {
  if (options === null || typeof options !== 'object') throw new DeckhandOptionsError('options', 'pass an object with at least `env`');
  checkOptionNames(options);
  if (options.env !== 'BROWSERBASE' && options.env !== 'LOCAL') {
    throw new DeckhandOptionsError('env', `must be 'BROWSERBASE' or 'LOCAL' (got ${JSON.stringify(options.env)})`);
  }
  if (options.verbose !== undefined && ![0, 1, 2].includes(options.verbose)) throw new DeckhandOptionsError('verbose', 'must be 0, 1 or 2');
  if (options.logger !== undefined && typeof options.logger !== 'function') throw new DeckhandOptionsError('logger', 'must be a function receiving log lines');
  if (options.domSettleTimeoutMs !== undefined && !(Number.isFinite(options.domSettleTimeoutMs) && options.domSettleTimeoutMs >= 0)) {
    throw new DeckhandOptionsError('domSettleTimeoutMs', 'must be a number of milliseconds, 0 or more');
  }
  if (options.llmClient !== undefined && options.modelName !== undefined) {
    throw new DeckhandOptionsError('llmClient', 'give either llmClient or modelName, not both');
  }
  const useAPI = options.useAPI ?? DEFAULTS.useAPI;
  if (options.env === 'LOCAL' && options.useAPI === true) {
    throw new DeckhandOptionsError('useAPI', "env 'LOCAL' runs without a server; leave useAPI unset or false");
  }
  if (options.llmClient !== undefined && options.env === 'BROWSERBASE' && useAPI) {
    throw new DeckhandOptionsError('llmClient', "an in-process model cannot be sent to the server: set useAPI: false or env: 'LOCAL'");
  }
  if (options.llmClient !== undefined && !isLanguageModel(options.llmClient)) {
    throw new DeckhandOptionsError('llmClient', "must be an AI SDK 6 language model object (specificationVersion 'v3'), e.g. createOpenAI({ apiKey })('gpt-4.1-mini')");
  }
  if (options.env === 'LOCAL' && options.waitForCaptchaSolves) throw new DeckhandOptionsError('waitForCaptchaSolves', "applies to env 'BROWSERBASE' only");
  if (options.env === 'LOCAL' && options.browserbaseSessionID) throw new DeckhandOptionsError('browserbaseSessionID', "resumes a server session; env 'LOCAL' has none");

  // No key is fine: a server with no keys configured (the default, on loopback) needs none, and one that has them answers 401.
  const apiKey = options.apiKey || env.DECKHAND_API_KEY || env.BROWSERBASE_API_KEY || undefined;
  checkKey(apiKey, 'apiKey');
  const rawBase = options.baseURL ?? env.DECKHAND_API_URL ?? env.STAGEHAND_API_URL ?? DEFAULTS.baseURL;
  const baseOption = options.baseURL !== undefined ? 'baseURL' : env.DECKHAND_API_URL !== undefined ? 'DECKHAND_API_URL' : 'STAGEHAND_API_URL';
  const model = options.modelClientOptions;
  if (model !== undefined && (model === null || typeof model !== 'object')) throw new DeckhandOptionsError('modelClientOptions', 'must be an object');
  if (model?.temperature !== undefined && !(typeof model.temperature === 'number' && Number.isFinite(model.temperature) && model.temperature >= 0)) {
    throw new DeckhandOptionsError('modelClientOptions.temperature', 'must be a number, 0 or more');
  }
  if (model?.maxTokens !== undefined && !(Number.isInteger(model.maxTokens) && model.maxTokens > 0)) {
    throw new DeckhandOptionsError('modelClientOptions.maxTokens', 'must be a whole number of tokens, 1 or more');
  }
  checkKey(model?.apiKey, 'modelClientOptions.apiKey');
  if (options.cacheDir !== undefined && (typeof options.cacheDir !== 'string' || options.cacheDir === '')) {
    throw new DeckhandOptionsError('cacheDir', 'must be a directory path');
  }
  const modelBaseURL = model?.baseURL ?? model?.api_base;
  if (modelBaseURL !== undefined) apiRoot(modelBaseURL, 'modelClientOptions.baseURL');
  if (modelBaseURL !== undefined && options.llmClient !== undefined) {
    throw new DeckhandOptionsError('modelClientOptions.baseURL', "llmClient's endpoint is its provider's (createOpenAI({ baseURL })); a baseURL here would name another model with every call");
  }

  return {
    ...options,
    apiKey,
    projectId: options.projectId ?? env.DECKHAND_PROJECT_ID ?? env.BROWSERBASE_PROJECT_ID,
    verbose: options.verbose ?? DEFAULTS.verbose,
    enableCaching: options.enableCaching ?? DEFAULTS.enableCaching,
    cacheDir: options.cacheDir ?? DEFAULTS.cacheDir,
    domSettleTimeoutMs: options.domSettleTimeoutMs ?? DEFAULTS.domSettleTimeoutMs,
    useAPI: options.env === 'LOCAL' ? false : useAPI,
    modelName: options.modelName ?? DEFAULTS.modelName,
    experimental: options.experimental ?? DEFAULTS.experimental,
    waitForCaptchaSolves: options.waitForCaptchaSolves ?? DEFAULTS.waitForCaptchaSolves,
    disablePino: options.disablePino ?? DEFAULTS.disablePino,
    logInferenceToFile: options.logInferenceToFile ?? DEFAULTS.logInferenceToFile,
    inferenceLogDir: options.inferenceLogDir ?? DEFAULTS.inferenceLogDir,
    streaming: options.streaming ?? DEFAULTS.streaming,
    baseURL: options.env === 'BROWSERBASE' ? apiRoot(rawBase, baseOption) : rawBase,
    modelBaseURL,
  };
}

/** An AI SDK 6 language model, as far as can be told without calling it. */
function isLanguageModel(value: unknown): boolean {
  const model = value as Partial<Record<'specificationVersion' | 'provider' | 'modelId' | 'doGenerate', unknown>> | null;
  return (
    typeof model === 'object' && model !== null && model.specificationVersion === 'v3' && typeof model.provider === 'string' && typeof model.modelId === 'string' && typeof model.doGenerate === 'function'
  );
}
