// The model layer: which provider a ModelConfig means, with which credential, and structured calls to it.
export type { AzureModelConfig, GenericModelConfig, LegacyProvider, ModelConfig, ModelEnv, VertexModelConfig } from './model-config.js';
export { DEFAULT_MODEL, modelIdentity, resolveModel, type ModelTarget, type ProviderKind } from './resolve-model.js';
export { resolveCredentials, type Credentials } from './keys.js';
export { createModelClient, type ModelClient } from './model-client.js';
export type { ModelLog, StructuredRequest } from './structured.js';
export { redactSecrets } from './model-error.js';
export { validateAgainstSchema, type JSONSchema } from './json-schema.js';
export { UsageMeter, type Usage } from './usage.js';
