// What a way of running does for the Deckhand class: the API mode sends each call to a server, the
// LOCAL mode runs the core in this process. Both answer the operations' `result`s.
import type { LogLine, components } from '@deckhand/contract';

type Schemas = components['schemas'];

export interface Started {
  sessionId: string;
  /** Browser-level DevTools websocket URL, when the mode has one. */
  cdpUrl?: string;
  sessionUrl: string;
  debugUrl: string;
}

export type OnLog = (line: LogLine) => void;

/** A session's files, cookies and storage state, and the project's sessions: the same calls in every mode. */
export interface SessionData {
  listDownloads(): Promise<Schemas['FileInfo'][]>;
  getDownload(name: string): Promise<Uint8Array>;
  deleteDownload(name: string): Promise<void>;
  listFiles(): Promise<Schemas['FileInfo'][]>;
  uploadFile(name: string, bytes: Uint8Array): Promise<Schemas['FileInfo']>;
  deleteFile(name: string): Promise<void>;
  getCookies(): Promise<Schemas['Cookie'][]>;
  setCookies(body: Schemas['SetCookiesRequest']): Promise<Schemas['Cookie'][]>;
  getStorageState(): Promise<Schemas['StorageState']>;
  setStorageState(state: Schemas['StorageState']): Promise<Schemas['StorageState']>;
}

export type SessionPage = Schemas['SessionListResponse']['data'];

/** A screenshot or PDF request as the Deckhand class sends it: the answer is always the file's bytes. */
export type PictureRequest<K extends 'ScreenshotRequest' | 'PdfRequest'> = Omit<Schemas[K], 'encoding'>;

export interface Backend {
  start(): Promise<Started>;
  /** The started session's files, cookies and storage state. */
  data(): SessionData;
  /** The project's sessions, newest first (limit: 1 to 200). */
  listSessions(page: { limit?: number; cursor?: string }): Promise<SessionPage>;
  navigate(body: Schemas['NavigateRequest'], onLog: OnLog): Promise<Schemas['NavigateResponse']['data']['result']>;
  act(body: Schemas['ActRequest'], onLog: OnLog): Promise<Schemas['ActResponse']['data']['result']>;
  observe(body: Schemas['ObserveRequest'], onLog: OnLog): Promise<Schemas['ObserveResponse']['data']['result']>;
  extract(body: Schemas['ExtractRequest'], onLog: OnLog): Promise<Schemas['ExtractResponse']['data']['result']>;
  /** The run's result, with the cache entry a server handed back for it (API mode, when caching). */
  agentExecute(body: Schemas['AgentExecuteRequest'], onLog: OnLog): Promise<Schemas['AgentExecuteResultOutput']>;
  /** The file's bytes (never base64: the Deckhand class answers bytes). */
  screenshot(body: PictureRequest<'ScreenshotRequest'>): Promise<Buffer>;
  pdf(body: PictureRequest<'PdfRequest'>): Promise<Buffer>;
  replay(): Promise<Schemas['ReplayResponse']['data']>;
  end(): Promise<void>;
}
