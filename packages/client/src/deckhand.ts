// The client people use: `new Deckhand(options)`, `init()`, then act / observe / extract / goto /
// agent(...).execute(...), `metrics`, `close()`, the same in every way of running (backend.ts).
import type { LogLine, components } from '@deckhand/contract';
import type { ModelCallRecord } from '@deckhand/core';
import { apiBackend } from './api-backend';
import { attachedBackend } from './attached-backend';
import type { Backend, OnLog, PictureRequest, SessionData, SessionPage, Started } from './backend';
import { DeckhandApiError } from './errors';
import { localBackend } from './local-backend';
import { keepAgentCacheEntry } from './agent-cache';
import { InferenceLog } from './inference-log';
import { createLogSink, type LogSink } from './log-sink';
import { metricsOf, type DeckhandMetrics } from './metrics';
import { resolveOptions, type DeckhandOptions, type ResolvedOptions } from './options';
import { Secrets } from './secrets';

type Schemas = components['schemas'];

export interface InitResult {
  /** A DevTools front end on the session's page (open it in a browser); '' in env LOCAL (no server). */
  debugUrl: string;
  /** A page a person opens to watch the session live (and its replay once ended); '' in env LOCAL. */
  sessionUrl: string;
  sessionId: string;
}

export type Action = Schemas['Action'];
export type ActOptions = Schemas['ActOptions'];
export type ObserveOptions = Schemas['ObserveOptions'];
export type ExtractOptions = Schemas['ExtractOptions'];
export type NavigateOptions = NonNullable<Schemas['NavigateRequest']['options']>;
export type AgentConfig = Schemas['AgentConfig'];
export type AgentExecuteOptions = Schemas['AgentExecuteOptions'];
export type FileInfo = Schemas['FileInfo'];
export type Cookie = Schemas['Cookie'];
export type StorageState = Schemas['StorageState'];

export class Deckhand {
  readonly options: ResolvedOptions;
  private readonly secrets = new Secrets();
  private readonly log: LogSink;
  private readonly inferenceLog?: InferenceLog;
  private readonly backend: Backend;
  private started?: Started;
  private closed = false;

  constructor(options: DeckhandOptions) {
    this.options = resolveOptions(options, process.env);
    this.secrets.addKey(this.options.apiKey);
    this.secrets.addKey(this.options.modelClientOptions?.apiKey);
    this.log = createLogSink(this.options.verbose, this.options.logger, this.secrets);
    if (this.options.logInferenceToFile) this.inferenceLog = new InferenceLog(this.options.inferenceLogDir, this.secrets);
    const { temperature, maxTokens } = this.options.modelClientOptions ?? {};
    if (this.options.useAPI && (temperature !== undefined || maxTokens !== undefined)) {
      this.log({ category: 'init', message: 'modelClientOptions.temperature and maxTokens apply to model calls made in this process (useAPI: false or env LOCAL); the API has no place for them', level: 1 });
    }
    // Where the model is called from this process, the inference file gets each of its calls too.
    const onModelCall = this.inferenceLog && ((call: ModelCallRecord) => this.logModelCall(call));
    this.backend =
      this.options.env === 'LOCAL' ? localBackend(this.options, { onModelCall }) : this.options.useAPI ? apiBackend(this.options) : attachedBackend(this.options, onModelCall);
  }

  /** Starts (or, with browserbaseSessionID, resumes) the session. */
  async init(): Promise<InitResult> {
    if (this.started) throw new Error('init() was already called on this client');
    this.started = await this.guard('init', () => this.backend.start());
    this.log({ category: 'init', message: `session ${this.started.sessionId} ready`, level: 1 });
    return { sessionId: this.started.sessionId, sessionUrl: this.started.sessionUrl, debugUrl: this.started.debugUrl };
  }

  get sessionId(): string {
    return this.live().sessionId;
  }

  /** Browser-level DevTools websocket for Playwright's `chromium.connectOverCDP(cdpUrl)`. */
  get cdpUrl(): string {
    const { cdpUrl } = this.live();
    if (!cdpUrl) throw new Error('this session has no CDP URL');
    return cdpUrl;
  }

  goto(url: string, options?: NavigateOptions): Promise<Schemas['NavigateResponse']['data']['result']> {
    const body = { url, ...(options ? { options } : {}) };
    return this.call('navigate', body, (onLog) => this.backend.navigate(body, onLog));
  }

  /** Same as goto. */
  navigate(url: string, options?: NavigateOptions) {
    return this.goto(url, options);
  }

  act(input: string | Action, options: ActOptions = {}): Promise<Schemas['ActResponse']['data']['result']> {
    this.secrets.addVariables(options.variables as Record<string, unknown> | undefined);
    const body: Schemas['ActRequest'] = { input, options: this.withModel(options) };
    return this.call('act', body, (onLog) => this.backend.act(body, onLog));
  }

  observe(instruction?: string, options: ObserveOptions = {}): Promise<Schemas['ObserveResponse']['data']['result']> {
    const body: Schemas['ObserveRequest'] = { ...(instruction !== undefined ? { instruction } : {}), options: this.withModel(options) };
    return this.call('observe', body, (onLog) => this.backend.observe(body, onLog));
  }

  /** With no arguments, the page text; with an instruction, `{extraction}`; with a JSON Schema, an object shaped by it. */
  extract(instruction?: string, schema?: Record<string, unknown>, options: ExtractOptions = {}): Promise<Schemas['ExtractResponse']['data']['result']> {
    const body: Schemas['ExtractRequest'] = {
      ...(instruction !== undefined ? { instruction } : {}),
      ...(schema !== undefined ? { schema: schema as Schemas['ExtractRequest']['schema'] } : {}),
      options: this.withModel(options),
    };
    return this.call('extract', body, (onLog) => this.backend.extract(body, onLog));
  }

  agent(config: AgentConfig = {}) {
    return {
      execute: (options: string | AgentExecuteOptions): Promise<Schemas['AgentExecuteResultOutput']['result']> => {
        const executeOptions = typeof options === 'string' ? { instruction: options } : options;
        this.secrets.addVariables(executeOptions.variables as Record<string, unknown> | undefined);
        const body: Schemas['AgentExecuteRequest'] = { agentConfig: config, executeOptions, shouldCache: this.options.enableCaching };
        return this.call('agentExecute', body, async (onLog) => {
          const { result, cacheEntry } = await this.backend.agentExecute(body, onLog);
          if (cacheEntry && this.options.enableCaching) {
            const file = await keepAgentCacheEntry(this.options.cacheDir, cacheEntry, this.secrets);
            this.log({ category: 'cache', message: file ? `agent cache entry kept in ${file}` : 'agent cache entry not kept: its key is not a file name', level: 2 });
          }
          return result;
        });
      },
    };
  }

  /** A PNG (or `type: 'jpeg'`) of the page's viewport, the whole page (`fullPage`) or one element (`selector`). */
  screenshot(options: PictureRequest<'ScreenshotRequest'> = {}): Promise<Buffer> {
    return this.call('screenshot', options, () => this.backend.screenshot(options));
  }

  /** The page printed to PDF by the (headless) browser: `format`, `landscape`, `printBackground`, `pageRanges`, … */
  pdf(options: PictureRequest<'PdfRequest'> = {}): Promise<Buffer> {
    return this.call('pdf', options, () => this.backend.pdf(options));
  }

  /** Tokens and time per operation of this session, as the session measured them (its replay). */
  get metrics(): Promise<DeckhandMetrics> {
    this.live();
    return this.guard('metrics', () => this.backend.replay()).then(metricsOf);
  }

  /** The files the session's pages downloaded (they go with the session when it ends). */
  downloads(): Promise<FileInfo[]> {
    return this.onData('downloads', (data) => data.listDownloads());
  }

  /** One download's bytes. */
  download(name: string): Promise<Uint8Array> {
    return this.onData('download', (data) => data.getDownload(name));
  }

  deleteDownload(name: string): Promise<void> {
    return this.onData('deleteDownload', (data) => data.deleteDownload(name));
  }

  /** Sends a file to the session, for `act({ method: 'setInputFiles', arguments: [name], selector })` or act("upload <name>"). */
  upload(name: string, bytes: Uint8Array): Promise<FileInfo> {
    return this.onData('upload', (data) => data.uploadFile(name, bytes));
  }

  /** The files sent to the session. */
  files(): Promise<FileInfo[]> {
    return this.onData('files', (data) => data.listFiles());
  }

  deleteFile(name: string): Promise<void> {
    return this.onData('deleteFile', (data) => data.deleteFile(name));
  }

  cookies(): Promise<Cookie[]> {
    return this.onData('cookies', (data) => data.getCookies());
  }

  /** Adds cookies (`clear: true` removes every cookie first); answers the cookies after. */
  setCookies(body: Schemas['SetCookiesRequest']): Promise<Cookie[]> {
    return this.onData('setCookies', (data) => data.setCookies(body));
  }

  /** Cookies and local storage, to start another session with (`storageState` option) or to set later. */
  storageState(): Promise<StorageState> {
    return this.onData('storageState', (data) => data.getStorageState());
  }

  setStorageState(state: StorageState): Promise<StorageState> {
    return this.onData('setStorageState', (data) => data.setStorageState(state));
  }

  /** The project's sessions, newest first; pass the answer's `nextCursor` for the next page. */
  listSessions(page: { limit?: number; cursor?: string } = {}): Promise<SessionPage> {
    this.live();
    return this.guard('listSessions', () => this.backend.listSessions(page));
  }

  /** Ends the session (its browser closes). A second close is a no-op. */
  async close(): Promise<void> {
    if (!this.started || this.closed) return;
    this.closed = true;
    await this.guard('close', () => this.backend.end());
  }

  private onData<T>(method: string, run: (data: SessionData) => Promise<T>): Promise<T> {
    this.live();
    return this.guard(method, () => run(this.backend.data()));
  }

  private live(): Started {
    if (!this.started) throw new Error('call init() first');
    if (this.closed) throw new Error('this client was closed');
    return this.started;
  }

  /** Per-call model settings from modelClientOptions (a baseURL is per call on the wire). */
  private withModel<T extends { model?: unknown }>(options: T): T {
    const base = this.options.modelBaseURL;
    if (options.model !== undefined || base === undefined) return options;
    return { ...options, model: { modelName: this.options.modelName, baseURL: base } };
  }

  private async call<T>(method: string, request: unknown, run: (onLog: OnLog) => Promise<T>): Promise<T> {
    const { sessionId } = this.live();
    const started = Date.now();
    const onLog = (line: LogLine) => this.log(line);
    try {
      const answer = await this.guard(method, () => run(onLog));
      this.log({ category: method, message: `${method} answered in ${Date.now() - started} ms`, level: 2 });
      await this.inferenceLog?.write(sessionId, { kind: 'operation', method, request, answer, durationMs: Date.now() - started });
      return answer;
    } catch (error) {
      await this.inferenceLog?.write(sessionId, { kind: 'operation', method, request, error: String((error as Error).message), durationMs: Date.now() - started });
      throw error;
    }
  }

  /** Called inside a model call of an operation: the line is written before the operation's own, and a failure to write it fails nothing. */
  private logModelCall(call: ModelCallRecord): void {
    if (!this.started) return;
    this.inferenceLog!.write(this.started.sessionId, { kind: 'modelCall', ...call }).catch((error: unknown) => {
      this.log({ category: 'inference', message: `inference log line not written: ${(error as Error).message}`, level: 0 });
    });
  }

  /** Runs a call; a failure is logged at error level (masked) and rethrown as it came. */
  private async guard<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const detail = error instanceof DeckhandApiError ? ` (${error.status} ${error.code})` : '';
      this.log({ category: method, message: `${method} failed: ${(error as Error).message}${detail}`, level: 0 });
      throw error;
    }
  }
}
