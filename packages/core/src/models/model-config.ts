// The three ModelConfig forms a request may carry (options.model, agentConfig.model): the generated
// contract types, named as the model layer uses them.
import type { AzureApiKeyModelConfig, AzureEntraModelConfig } from '@deckhand/contract';

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
