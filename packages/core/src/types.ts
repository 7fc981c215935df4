// Wire shapes the core accepts and returns. Structurally identical to openapi.yaml's schemas so the
// lead can swap these declarations for re-exports of packages/contract without touching callers.

export type Primitive = string | number | boolean;
export type VariableValue = Primitive | { value: Primitive; description?: string };
export type Variables = Record<string, VariableValue>;

/** A model name or a ModelConfig object; the core only reads `modelName` from the object forms. */
export type ModelConfigOrName = string | ({ modelName: string } & Record<string, unknown>);

export interface Viewport {
  width: number;
  height: number;
}

export interface LaunchOptions {
  args?: string[];
  executablePath?: string;
  port?: number;
  userDataDir?: string;
  preserveUserDataDir?: boolean;
  headless?: boolean;
  devtools?: boolean;
  chromiumSandbox?: boolean;
  ignoreDefaultArgs?: boolean | string[];
  proxy?: { server: string; bypass?: string; username?: string; password?: string };
  locale?: string;
  viewport?: Viewport;
  deviceScaleFactor?: number;
  hasTouch?: boolean;
  ignoreHTTPSErrors?: boolean;
  cdpUrl?: string;
  connectTimeoutMs?: number;
  downloadsPath?: string;
  acceptDownloads?: boolean;
}

export interface BrowserConfig {
  type: 'local' | 'browserbase';
  cdpUrl?: string;
  launchOptions?: LaunchOptions;
}

export interface StartRequest {
  modelName: string;
  domSettleTimeoutMs?: number;
  verbose?: 0 | 1 | 2 | '0' | '1' | '2';
  systemPrompt?: string;
  selfHeal?: boolean;
  experimental?: boolean;
  waitForCaptchaSolves?: boolean;
  actTimeoutMs?: number;
  enableCaching?: boolean;
  browserbaseSessionID?: string;
  browserbaseSessionCreateParams?: {
    browserSettings?: { viewport?: Viewport } & Record<string, unknown>;
  } & Record<string, unknown>;
  browser?: BrowserConfig;
}

export type FrameId = string | null;

export interface Action {
  selector: string;
  description?: string;
  backendNodeId?: number;
  method?: string;
  arguments?: string[];
}

export interface ActRequest {
  input: string | Action;
  options?: { model?: ModelConfigOrName; variables?: Variables; timeout?: number };
  frameId?: FrameId;
  streamResponse?: boolean;
}

export interface ActResult {
  success: boolean;
  message: string;
  actionDescription: string;
  actions: Action[];
}

export interface NavigateRequest {
  url: string;
  options?: { referer?: string; timeout?: number; waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' };
  frameId?: FrameId;
  streamResponse?: boolean;
}

/** The main response in the shape of CDP's Network.Response (never the body). */
export interface NetworkResponse {
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  mimeType: string;
  remoteIPAddress?: string;
  remotePort?: number;
  protocol?: string;
  fromDiskCache?: boolean;
  fromServiceWorker?: boolean;
  encodedDataLength?: number;
}

export interface NavigateResult {
  requestId: string;
  frameId?: string;
  loaderId?: string;
  response: NetworkResponse;
}

export interface ObserveRequest {
  instruction?: string;
  options?: { model?: ModelConfigOrName; timeout?: number; selector?: string; variables?: Variables };
  frameId?: FrameId;
  streamResponse?: boolean;
}

export interface ExtractRequest {
  instruction?: string;
  schema?: Record<string, unknown>;
  options?: { model?: ModelConfigOrName; timeout?: number; selector?: string };
  frameId?: FrameId;
  streamResponse?: boolean;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
  timeMs?: number;
  cost?: number;
}

export interface ReplayAction {
  method: string;
  parameters: unknown;
  result: unknown;
  timestamp: number;
  endTime?: number;
  tokenUsage?: TokenUsage;
}

export interface ReplayPage {
  url: string;
  timestamp: number;
  duration: number;
  actions: ReplayAction[];
}

export interface ReplayResult {
  pages: ReplayPage[];
}

export interface LogLine {
  category?: string;
  message: string;
  level?: 0 | 1 | 2;
  timestamp?: string;
  auxiliary?: Record<string, { value: string; type: 'object' | 'string' | 'html' | 'integer' | 'float' | 'boolean' }>;
}
