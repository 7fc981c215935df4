// The model layer (which provider a ModelConfig means, with which credential, and structured calls to it):
// what the package entry point re-exports. Everything else imports the module it needs directly.
export type { LanguageModelV3, ModelConfig, ModelEnv } from './model-config.js';
export type { ModelCallRecord, OnModelCall } from './model-calls.js';
export { DEFAULT_MODEL, knownProviderOf } from './resolve-model.js';
