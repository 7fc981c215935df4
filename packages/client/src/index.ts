// @deckhand/client: typed access to a Deckhand server.
export { createDeckhandClient, type DeckhandClient, type DeckhandClientOptions, type DeckhandSession, type CallOptions } from './client';
export { DeckhandApiError } from './errors';
export { readEvents } from './sse';
export { bindEndpoints, type Endpoints } from './gen/endpoints.gen';
export { Deckhand, type InitResult, type Action, type ActOptions, type ObserveOptions, type ExtractOptions, type NavigateOptions, type AgentConfig, type AgentExecuteOptions, type FileInfo, type Cookie, type StorageState } from './deckhand';
export { DeckhandOptionsError, DEFAULTS, type DeckhandOptions, type DeckhandEnv, type ModelClientOptions } from './options';
export type { DeckhandMetrics, OperationMetrics } from './metrics';
