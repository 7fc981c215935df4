// The client people use: `new Deckhand(options)`, `init()`, then act / observe / extract / goto /
// agent(...).execute(...), `metrics`, `close()`. This file is the API mode (env 'BROWSERBASE', useAPI
// true): every call goes through the generated bindings to a Deckhand server.
import type { LogLine, components } from '@deckhand/contract';
import { createDeckhandClient, type CallOptions, type DeckhandClient, type DeckhandSession } from './client';
import { DeckhandApiError } from './errors';
import { InferenceLog } from './inference-log';
import { createLogSink, type LogSink } from './log-sink';
import { metricsOf, type DeckhandMetrics } from './metrics';
import { DeckhandOptionsError, resolveOptions, type DeckhandOptions, type ResolvedOptions } from './options';
import { Secrets } from './secrets';

type Schemas = components['schemas'];

export interface InitResult {
  /** Where to debug the session: the server's token-checked DevTools (CDP) endpoint. */
  debugUrl: string;
  /** A page a person opens to watch the session live. */
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

export class Deckhand {
  readonly options: ResolvedOptions;
  private readonly secrets = new Secrets();
  private readonly log: LogSink;
  private readonly inferenceLog?: InferenceLog;
  private readonly api: DeckhandClient;
  private session?: DeckhandSession;
  private started?: { cdpUrl: string; sessionUrl: string; debugUrl: string };
  private closed = false;

  constructor(options: DeckhandOptions) {
    this.options = resolveOptions(options, process.env);
    if (!this.options.useAPI) {
      throw new DeckhandOptionsError(this.options.env === 'LOCAL' ? 'env' : 'useAPI', 'running the core in this process is not available yet in this client; use env BROWSERBASE with useAPI true');
    }
    this.secrets.add(this.options.apiKey);
    this.secrets.add(this.options.modelClientOptions?.apiKey);
    this.log = createLogSink(this.options.verbose, this.options.logger, this.secrets);
    if (this.options.logInferenceToFile) this.inferenceLog = new InferenceLog(this.options.inferenceLogDir, this.secrets);
    const headers: Record<string, string> = { 'x-language': 'typescript' };
    if (this.options.projectId) headers['x-bb-project-id'] = this.options.projectId;
    this.api = createDeckhandClient({
      baseUrl: this.options.baseURL,
      apiKey: this.options.apiKey,
      modelApiKey: this.options.modelClientOptions?.apiKey,
      headers,
    });
  }

  /** Starts (or, with browserbaseSessionID, resumes) the session. */
  async init(): Promise<InitResult> {
    if (this.session) throw new Error('init() was already called on this client');
    const o = this.options;
    if (o.browserbaseSessionID) {
      const session = this.api.session(o.browserbaseSessionID);
      const found = await this.guard('init', () => this.api.ops.getBrowserSession(o.browserbaseSessionID!).then(unwrapOk));
      this.session = session;
      this.started = urlsOf(found as { connectUrl: string; sessionUrl?: string; debugUrl?: string });
    } else {
      const started = await this.guard('init', () =>
        this.api.start({
          modelName: o.modelName,
          domSettleTimeoutMs: o.domSettleTimeoutMs,
          verbose: o.verbose,
          systemPrompt: o.systemPrompt,
          selfHeal: o.selfHeal,
          experimental: o.experimental,
          waitForCaptchaSolves: o.waitForCaptchaSolves,
          actTimeoutMs: o.actTimeoutMs,
          enableCaching: o.enableCaching,
          browserbaseSessionCreateParams: o.browserbaseSessionCreateParams,
          ...(o.localBrowserLaunchOptions ? { browser: { type: 'local' as const, launchOptions: o.localBrowserLaunchOptions } } : {}),
        }),
      );
      this.session = started.session;
      this.started = urlsOf({ connectUrl: started.cdpUrl, ...(started as { sessionUrl?: string; debugUrl?: string }) });
    }
    this.log({ category: 'init', message: `session ${this.session.id} ready`, level: 1 });
    return { sessionId: this.session.id, sessionUrl: this.started.sessionUrl, debugUrl: this.started.debugUrl };
  }

  get sessionId(): string {
    return this.live().id;
  }

  /** Browser-level DevTools websocket for Playwright's `chromium.connectOverCDP(cdpUrl)`. */
  get cdpUrl(): string {
    this.live();
    return this.started!.cdpUrl;
  }

  async goto(url: string, options?: NavigateOptions): Promise<Schemas['NavigateResponse']['data']['result']> {
    const body = { url, ...(options ? { options } : {}) };
    return (await this.call('navigate', body, (session, call) => session.navigate(body, call))).result;
  }

  /** Same as goto. */
  navigate(url: string, options?: NavigateOptions) {
    return this.goto(url, options);
  }

  async act(input: string | Action, options: ActOptions = {}): Promise<Schemas['ActResponse']['data']['result']> {
    this.secrets.addVariables(options.variables as Record<string, unknown> | undefined);
    const body: Schemas['ActRequest'] = { input, options: this.withModel(options) };
    return (await this.call('act', body, (session, call) => session.act(body, call))).result;
  }

  async observe(instruction?: string, options: ObserveOptions = {}): Promise<Schemas['ObserveResponse']['data']['result']> {
    const body: Schemas['ObserveRequest'] = { ...(instruction !== undefined ? { instruction } : {}), options: this.withModel(options) };
    return (await this.call('observe', body, (session, call) => session.observe(body, call))).result;
  }

  /** With no arguments, the page text; with an instruction, `{extraction}`; with a JSON Schema, an object shaped by it. */
  async extract(instruction?: string, schema?: Record<string, unknown>, options: ExtractOptions = {}): Promise<Schemas['ExtractResponse']['data']['result']> {
    const body: Schemas['ExtractRequest'] = {
      ...(instruction !== undefined ? { instruction } : {}),
      ...(schema !== undefined ? { schema: schema as Schemas['ExtractRequest']['schema'] } : {}),
      options: this.withModel(options),
    };
    return (await this.call('extract', body, (session, call) => session.extract(body, call))).result;
  }

  agent(config: AgentConfig = {}) {
    return {
      execute: async (options: string | AgentExecuteOptions): Promise<Schemas['AgentExecuteResultOutput']['result']> => {
        const executeOptions = typeof options === 'string' ? { instruction: options } : options;
        this.secrets.addVariables(executeOptions.variables as Record<string, unknown> | undefined);
        const body: Schemas['AgentExecuteRequest'] = { agentConfig: config, executeOptions, shouldCache: this.options.enableCaching };
        return (await this.call('agentExecute', body, (session, call) => session.agentExecute(body, call))).result;
      },
    };
  }

  /** Tokens and time per operation of this session, measured by the server (its replay). */
  get metrics(): Promise<DeckhandMetrics> {
    const session = this.live();
    return this.guard('metrics', () => session.replay()).then(metricsOf);
  }

  /** Ends the session (its browser closes). A second close is a no-op. */
  async close(): Promise<void> {
    if (!this.session || this.closed) return;
    this.closed = true;
    const session = this.session;
    await this.guard('close', () => session.end());
  }

  private live(): DeckhandSession {
    if (!this.session) throw new Error('call init() first');
    if (this.closed) throw new Error('this client was closed');
    return this.session;
  }

  /** Per-call model settings from modelClientOptions (a baseURL is per call on the wire). */
  private withModel<T extends { model?: unknown }>(options: T): T {
    const base = this.options.modelBaseURL;
    if (options.model !== undefined || base === undefined) return options;
    return { ...options, model: { modelName: this.options.modelName, baseURL: base } };
  }

  private async call<T>(method: string, request: unknown, run: (session: DeckhandSession, call: CallOptions) => Promise<T>): Promise<T> {
    const session = this.live();
    const started = Date.now();
    const onLog = (line: LogLine) => this.log(line);
    try {
      const answer = await this.guard(method, () => run(session, { stream: this.options.streaming, onLog }));
      this.log({ category: method, message: `${method} answered in ${Date.now() - started} ms`, level: 2 });
      await this.inferenceLog?.write(session.id, { method, request, answer, durationMs: Date.now() - started });
      return answer;
    } catch (error) {
      await this.inferenceLog?.write(session.id, { method, request, error: String((error as Error).message), durationMs: Date.now() - started });
      throw error;
    }
  }

  /** Runs a server call; a failure is logged at error level (masked) and rethrown as it came. */
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

function unwrapOk(answer: { data?: unknown; error?: unknown; response: Response }): unknown {
  if (!answer.response.ok) {
    throw new DeckhandApiError(answer.response.status, answer.error as never, answer.response.headers.get('x-request-id') ?? undefined);
  }
  return answer.data;
}

/** The server hands out the live page and debug URLs beside the CDP URL; an older server only the latter. */
function urlsOf(found: { connectUrl: string; sessionUrl?: string; debugUrl?: string }) {
  return { cdpUrl: found.connectUrl, sessionUrl: found.sessionUrl ?? '', debugUrl: found.debugUrl ?? found.connectUrl };
}
