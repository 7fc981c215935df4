// The three ModelConfig forms a request may carry (options.model, agentConfig.model), as the core
// receives them. The generated contract types are structurally assignable to these.

/** Legacy `provider` values; "browserbase" (the service's own name) means "infer from modelName". */
export type LegacyProvider = 'browserbase' | 'anthropic' | 'google' | 'microsoft' | 'bedrock';

export interface GenericModelConfig {
  modelName: string;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  openaiEndpointFormat?: 'responses' | 'chat';
  provider?: LegacyProvider;
}

export interface GoogleServiceAccountCredentials {
  private_key: string;
  client_email: string;
  type?: 'service_account';
  project_id?: string;
  private_key_id?: string;
  client_id?: string;
  universe_domain?: string;
  auth_uri?: string;
  token_uri?: string;
  auth_provider_x509_cert_url?: string;
  client_x509_cert_url?: string;
}

export interface GoogleServiceAccountAuth {
  type: 'googleServiceAccount';
  credentials: GoogleServiceAccountCredentials;
  scopes?: string | string[];
  projectId?: string;
  universeDomain?: string;
}

export interface VertexModelConfig {
  modelName: string;
  provider: 'vertex';
  auth: GoogleServiceAccountAuth;
  providerOptions: { vertex: { project: string; location: string; baseURL?: string; headers?: Record<string, string> } };
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
}

export interface AzureModelConfig {
  modelName: string;
  provider: 'azure';
  providerOptions: {
    azure: {
      resourceName?: string;
      baseURL?: string;
      apiVersion?: string;
      useDeploymentBasedUrls?: boolean;
      headers?: Record<string, string>;
    };
  };
  auth?: { type: 'azureEntraId'; token: string };
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
}

export type ModelConfig = GenericModelConfig | VertexModelConfig | AzureModelConfig;

/** Server configuration read once at the edge (process env, flags) and passed down. */
export type ModelEnv = Record<string, string | undefined>;
