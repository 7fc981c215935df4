// The core's public surface: what the server (and the in-process client) calls.
export { createSessionManager, type SessionManager, type SessionStats, type StartOptions } from './session/session-manager.js';
export type { OperationMeasure, SessionTelemetry } from './session/telemetry.js';
export type { Session, SessionState } from './session/session.js';
export type { OpenedFile } from './session/session-files.js';
export type { OpContext, OperationScope } from './scope/operation-scope.js';
export { defineTool, viewOf, type Tool, type ToolCapability, type ToolView } from './tools/tool.js';
export { inCapabilities, toolCatalog, toolNamed } from './tools/catalog.js';
export { findChromium } from './browser/chromium-path.js';
export { sweepStaleTempDirs } from './browser/temp-dirs.js';
export type { CdpChannel } from './browser/cdp-mux.js';
export { bridgeWebSocket, CdpRelay, servePrivateCdp, type PrivateCdpEndpoint, type RelaySocket } from './browser/cdp-websocket.js';
export { DEFAULT_CORE_CONFIG, envInteger, loadCoreConfigFromEnv, type CoreConfig, type ServiceMode } from './config.js';
export { DEFAULT_MODEL, knownProviderOf, type LanguageModelV3, type ModelCallRecord, type ModelConfig, type ModelEnv, type OnModelCall } from './models/index.js';
export { KeyedCounts } from './keyed-counts.js';
export { TokenBuckets } from './token-bucket.js';
export { DeckhandError, ERROR_STATUS, firstLine, isDeckhandError, type ErrorCode, type ValidationIssue } from './errors.js';
export type * from './types.js';
