// The three ModelConfig forms a request may carry (options.model, agentConfig.model): the generated
// contract types, named as the model layer uses them, and the AI SDK model object an in-process caller gives instead.
import type { AzureApiKeyModelConfig, AzureEntraModelConfig } from '@deckhand/contract';
import type { wrapLanguageModel } from 'ai';

export type {
  GenericModelConfig,
  GoogleServiceAccountAuth,
  GoogleServiceAccountCredentials,
  LegacyProvider,
  ModelConfig,
  VertexModelConfig,
} from '@deckhand/contract';

export type AzureModelConfig = AzureEntraModelConfig | AzureApiKeyModelConfig;

/** Server configuration read once at the edge (process env, flags) and passed down. */
export type ModelEnv = Record<string, string | undefined>;

/** An AI SDK 6 language model object (what the providers' packages return); the type `ai` does not export under this name. */
export type LanguageModelV3 = Parameters<typeof wrapLanguageModel>[0]['model'];
