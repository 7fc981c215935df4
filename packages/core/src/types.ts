// Wire shapes the core accepts and returns: the types generated from openapi.yaml, re-exported under
// the names the core uses.
import type { ReplayResponse, SessionStartRequest } from '@deckhand/contract';

export type {
  Action,
  AgentAction,
  AgentCacheEntryOutput,
  AgentExecuteRequest,
  AgentResultDataOutput,
  ActRequest,
  ActResult,
  BrowserConfig,
  Cookie,
  ExtractRequest,
  FileInfo,
  FrameId,
  LaunchOptions,
  LogLine,
  ModelConfigOrName,
  NavigateRequest,
  NavigateResult,
  NetworkResponse,
  ObserveRequest,
  Primitive,
  ReplayAction,
  ReplayPage,
  SessionSummary,
  SetCookiesRequest,
  StorageState,
  TokenUsage,
  Variables,
  VariableValue,
  Viewport,
} from '@deckhand/contract';

export type StartRequest = SessionStartRequest;
export type ReplayResult = ReplayResponse['data'];
